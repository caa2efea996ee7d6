"""Shared fixtures: the module, every instruction set this CPU runs, and data makers."""
import numpy as np
import pytest

import simdcollide as sc


@pytest.fixture(params=sc.supported_isas())
def isa(request):
    """Each instruction set this build and CPU run, forced for the test, then forgotten."""
    sc.set_isa(request.param)
    yield request.param
    sc.reset_isa()


def same_bits(a, b):
    """Whether two float32 (or integer) arrays hold the same bits, NaNs included."""
    a = np.asarray(a)
    b = np.asarray(b)
    if a.dtype == np.float32:
        a, b = a.view(np.uint32), b.view(np.uint32)
    return a.shape == b.shape and np.array_equal(a, b)


def f32(values):
    return np.ascontiguousarray(values, dtype=np.float32)


def random_circles(rng, n, spread=10.0):
    """Valid circles: centres in a square, radii from 0 up, with exact edge cases mixed in."""
    x = f32(rng.uniform(-spread, spread, n))
    y = f32(rng.uniform(-spread, spread, n))
    r = f32(rng.uniform(0.0, 2.0, n))
    r[::7] = 0.0  # point particles
    return x, y, r


def random_boxes(rng, n, spread=10.0):
    """Valid boxes, some of them points or lines, some far and some huge."""
    cx = rng.uniform(-spread, spread, n)
    cy = rng.uniform(-spread, spread, n)
    w = rng.uniform(0.0, 4.0, n)
    h = rng.uniform(0.0, 4.0, n)
    w[::5] = 0.0
    h[::11] = 0.0
    return f32(cx - w), f32(cy - h), f32(cx + w), f32(cy + h)


def random_particles(rng, n, spread=10.0):
    x, y, r = random_circles(rng, n, spread)
    inverse_mass = f32(rng.uniform(0.0, 2.0, n))
    inverse_mass[::9] = 0.0  # static
    inverse_mass[1::13] = np.float32(1e-40)  # subnormal
    inverse_mass[2::17] = np.float32(3e38)  # near the largest float
    vx = f32(rng.normal(0.0, 3.0, n))
    vy = f32(rng.normal(0.0, 3.0, n))
    return x, y, r, inverse_mass, vx, vy


def copies(arrays):
    return [np.array(a, copy=True) for a in arrays]
