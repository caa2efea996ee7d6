"""Bad input from Python: a TypeError or ValueError naming the argument, before anything is
written, and never a silent copy."""
import numpy as np
import pytest

import simdcollide as sc
from conftest import f32


def arrays(n=8):
    x = f32(np.linspace(-1, 1, n))
    return x, f32(np.zeros(n)), f32(np.full(n, 0.5))


BOX = sc.AABB(-0.5, -0.5, 0.5, 0.5)


@pytest.mark.parametrize("bad, error, words", [
    (np.zeros(8), TypeError, "Circles.y must be an array of float32, not float64"),
    (np.zeros(8, dtype=">f4"), TypeError, "Circles.y must be an array of float32"),
    ([0.0] * 8, TypeError, "Circles.y must be a numpy array of float32, not list"),
    (np.zeros((2, 4), np.float32), ValueError, "Circles.y must be 1-dimensional"),
    (np.zeros(16, np.float32)[::2], ValueError, "Circles.y must be C-contiguous"),
    (np.zeros(9, np.float32), ValueError, "Circles.y has 9 elements where Circles.x has 8"),
    (np.frombuffer(bytes(33), dtype=np.float32, offset=1), ValueError, "aligned"),
])
def test_views_refuse_arrays_they_cannot_use_in_place(bad, error, words):
    x, _, r = arrays()
    with pytest.raises(error, match=words.replace("(", r"\(")):
        sc.Circles(x, bad, r)


def test_a_read_only_array_is_refused_where_written_before_anything_is_written():
    x, y, r = arrays()
    y.setflags(write=False)
    before = x.copy()
    c = sc.Circles(x, y, r)
    assert sc.count_overlaps(c, BOX) > 0  # reading it is fine
    with pytest.raises(ValueError, match="circles.y is read-only, and this call writes it"):
        sc.push_out(c, BOX)
    assert np.array_equal(x, before)


def test_arrays_changed_after_the_view_was_made_are_checked_again():
    x, y, r = arrays()
    c = sc.Circles(x, y, r)
    y.shape = (2, 4)
    with pytest.raises(ValueError, match="circles.y must be 1-dimensional"):
        sc.distance_squared(c, BOX)


@pytest.mark.parametrize("out, error, words", [
    (np.zeros(8), TypeError, "out must be an array of float32"),
    (np.zeros(7, np.float32), ValueError, "out has 7 elements"),
    ([0.0] * 8, TypeError, "out must be a numpy array"),
    (np.zeros(16, np.float32)[::2], ValueError, "out must be C-contiguous"),
])
def test_bad_outputs_are_refused(out, error, words):
    with pytest.raises(error, match=words):
        sc.distance_squared(sc.Circles(*arrays()), BOX, out=out)


def test_a_read_only_output_is_refused():
    out = np.zeros(8, np.float32)
    out.setflags(write=False)
    with pytest.raises(ValueError, match="out is read-only"):
        sc.distance_squared(sc.Circles(*arrays()), BOX, out=out)
    mask = np.zeros(8, np.int32)
    with pytest.raises(TypeError, match="mask must be an array of uint8 or bool"):
        sc.overlap(sc.Circles(*arrays()), BOX, mask=mask)


def test_outputs_and_workspaces_of_another_kind_are_refused():
    c = sc.Circles(*arrays())
    with pytest.raises(TypeError, match="out must be a Contacts, not ndarray"):
        sc.contact(c, BOX, out=np.zeros(8, np.float32))
    x, y, r = arrays()
    p = sc.Particles(x, y, r, f32(np.ones(8)))
    pairs = np.array([[0, 1]], dtype=np.uint32)
    with pytest.raises(TypeError, match="workspace must be a SeparationWorkspace, not list"):
        sc.separate(p, pairs, workspace=[])
    groups = sc.PairGrouper().group(pairs, 8)
    with pytest.raises(TypeError, match="workspace must be a SeparationWorkspace"):
        sc.separate_in_order(p, groups, workspace=np.zeros(3))


def test_views_of_different_lengths_are_refused():
    a = sc.Circles(*arrays(8))
    b = sc.Circles(*arrays(9))
    with pytest.raises(ValueError):
        sc.distance_squared(a, b)
    boxes = sc.Boxes(*(f32(np.zeros(9)) for _ in range(4)))
    with pytest.raises(ValueError):
        sc.contact(a, boxes)


def test_a_missing_field_is_named():
    x, y, r = arrays()
    with pytest.raises(ValueError, match="circles.radius is None, and this call reads it"):
        sc.push_out(sc.Circles(x, y), BOX)
    with pytest.raises(ValueError, match="a.inverse_mass is None"):
        p = sc.Particles(x, y, r)
        sc.separate(p, p)


def test_bad_pairs_are_refused_before_anything_moves():
    x, y, r = arrays()
    p = sc.Particles(x, y, r, f32(np.ones(8)))
    before = x.copy()
    with pytest.raises(ValueError):  # out of range, from the kernel's own check
        sc.separate(p, np.array([[0, 1], [2, 8]], dtype=np.uint32))
    with pytest.raises(ValueError):  # a pair of one circle with itself
        sc.separate(p, np.array([[0, 1], [3, 3]], dtype=np.uint32))
    assert np.array_equal(x, before)
    with pytest.raises(TypeError, match="pairs must be an array of uint32, not int64"):
        sc.separate(p, np.array([[0, 1]], dtype=np.int64))
    with pytest.raises(ValueError, match=r"pairs must have shape \(n, 2\)"):
        sc.separate(p, np.zeros((2, 3), dtype=np.uint32))
    with pytest.raises(ValueError, match="weighting must be"):
        sc.separate(p, np.array([[0, 1]], dtype=np.uint32), "heavy")


def test_bad_kernel_parameters_are_refused():
    c = sc.Circles(*arrays())
    with pytest.raises(ValueError):
        sc.contact(c, BOX, margin=-1.0)
    x, y, r = arrays()
    p = sc.Particles(x, y, r, f32(np.ones(8)), f32(np.zeros(8)), f32(np.zeros(8)))
    contacts = sc.Contacts.zeros(8)
    with pytest.raises(ValueError):
        sc.respond(p, contacts, restitution=2.0)
    with pytest.raises(ValueError):
        sc.respond(p, contacts, friction=-1.0)


def test_world_options_are_checked():
    with pytest.raises(ValueError):
        sc.World(substeps=0)
    with pytest.raises(ValueError):
        sc.World(friction=-0.5)
    with pytest.raises(ValueError):
        sc.World(workers=0)
    with pytest.raises(ValueError, match="contact_hertz"):
        sc.World(contact_hertz=-1.0)
    with pytest.raises(ValueError, match="contact_damping_ratio"):
        sc.World(contact_damping_ratio=float("nan"))
    with pytest.raises(ValueError, match="max_push_speed"):
        sc.World(max_push_speed=0.0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'substep'"):
        sc.World(substep=4)
    with pytest.raises(TypeError, match="substeps must be an int"):
        sc.World(substeps=4.0)
    with pytest.raises(TypeError, match="friction must be a number"):
        sc.World(friction=True)
    with pytest.raises(TypeError, match="friction must be a number"):
        sc.World(friction="0.2")


def test_world_input_is_checked_and_a_bad_batch_adds_nothing():
    w = sc.World()
    w.add_circle(0.0, 0.0, 0.5)
    with pytest.raises(ValueError, match="radius"):
        w.add_circles([0.0, 1.0], [0.0, 0.0], [0.5, -0.5])
    with pytest.raises(ValueError, match="y has 1 elements where x has 2"):
        w.add_circles([0.0, 1.0], [0.0], [0.5, 0.5])
    with pytest.raises(ValueError, match="both vx and vy"):
        w.add_circles([0.0], [0.0], [0.5], vx=[1.0])
    assert len(w) == 1
    with pytest.raises(IndexError):
        w.remove_circle(1)
    with pytest.raises(ValueError):
        w.step(float("nan"))
    with pytest.raises(ValueError):
        w.set_boxes([0.0], [0.0], [-1.0], [1.0])  # min_x > max_x
    with pytest.raises(ValueError, match="mask has 3 elements"):
        w.remove_circles(np.zeros(3, dtype=bool))
    assert len(w) == 1


def test_the_worlds_radii_and_masses_are_read_only():
    w = sc.World()
    w.add_circle(0.0, 0.0, 0.5)
    with pytest.raises(ValueError):
        w.radius[0] = 2.0
    with pytest.raises(ValueError):
        w.inverse_mass[0] = 2.0
    w.x[0] = 3.0
    assert w.x[0] == 3.0
