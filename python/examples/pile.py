#!/usr/bin/env python3
"""A pile of circles stepped from Python and drawn with matplotlib, then the SIMD kernels
compared with the scalar reference on the pile's own arrays.

    python3 pile.py [--circles N] [--seconds S] [--out pile.png]

Run it from the build folder (where the module is), or with the module installed.
"""
import argparse
import time

import numpy as np

import simdcollide as sc


def make_world(n, rng):
    world = sc.World(substeps=4)
    columns = 40
    x = -9.5 + 0.5 * (np.arange(n) % columns) + rng.uniform(-0.05, 0.05, n)
    y = 1.0 + 0.5 * (np.arange(n) // columns)
    radius = rng.uniform(0.15, 0.24, n)
    world.add_circles(x, y, radius, inverse_mass=1.0)
    # A container: floor and two walls, and a shelf for the pile to pour over.
    world.set_boxes(min_x=[-11, -11, 10, -4], min_y=[-1, -1, -1, 4],
                    max_x=[11, -10, 11, 2], max_y=[0, 40, 40, 4.4])
    return world


def draw(world, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle, Rectangle

    fig, ax = plt.subplots(figsize=(6, 6))
    speed = np.hypot(world.vx, world.vy)
    circles = PatchCollection([Circle((x, y), r) for x, y, r in
                               zip(world.x, world.y, world.radius)], cmap="viridis")
    circles.set_array(speed)
    ax.add_collection(circles)
    b = world.boxes
    for x0, y0, x1, y1 in zip(b.min_x, b.min_y, b.max_x, b.max_y):
        ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, color="0.4"))
    ax.set_xlim(-11, 11)
    ax.set_ylim(-1, 21)
    ax.set_aspect("equal")
    fig.colorbar(circles, ax=ax, label="speed (m/s)")
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--circles", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--out", default="pile.png")
    args = parser.parse_args()

    rng = np.random.default_rng(1)
    world = make_world(args.circles, rng)
    steps = int(round(args.seconds * 60))
    start = time.perf_counter()
    for _ in range(steps):
        world.step(1 / 60)
    elapsed = time.perf_counter() - start
    print(f"{len(world)} circles, {steps} steps of 1/60 s: {1e3 * elapsed / steps:.3f} ms a step,"
          f" mean v^2 {np.mean(world.vx ** 2 + world.vy ** 2):.2e}")
    draw(world, args.out)
    print(f"wrote {args.out}")

    # The kernels on the pile's own arrays: SIMD against the scalar reference, bit for bit.
    circles = sc.Circles(world.x, world.y, world.radius)
    pairs = sc.PairFinder().find(circles, margin=0.05)
    simd, _ = sc.contact(circles, pairs)
    reference, _ = sc.reference.contact(circles, pairs)
    same = all(np.array_equal(getattr(simd, f).view(np.uint32),
                              getattr(reference, f).view(np.uint32))
               for f in ("normal_x", "normal_y", "depth", "point_x", "point_y"))
    print(f"{len(pairs)} pairs: {sc.active_isa()} and reference contacts "
          f"{'the same bits' if same else 'DIFFER'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
