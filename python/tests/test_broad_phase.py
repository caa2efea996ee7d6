"""The broad phases and separation in order from Python: the same results as their
references on every instruction set."""
import numpy as np
import pytest

import simdcollide as sc
from conftest import copies, f32, random_boxes, random_particles, same_bits


def pile(seed, n=3000):
    rng = np.random.default_rng(seed)
    x, y, r, im, vx, vy = random_particles(rng, n, spread=25.0)
    r[:] = f32(rng.uniform(0.2, 0.6, n))
    r[::97] = 3.0  # a few large circles
    return x, y, r, im, vx, vy


@pytest.mark.parametrize("margin", [0.0, 0.2])
def test_pair_finder_finds_the_brute_force_pairs(isa, margin):
    x, y, r, *_ = pile(1)
    c = sc.Circles(x, y, r)
    finder = sc.PairFinder()
    found = finder.find(c, margin)
    expected = sc.reference.find_pairs(c, margin)
    assert found.dtype == np.uint32 and found.shape[1] == 2
    assert len(expected) > 1000
    assert np.array_equal(found, expected)
    assert finder.cell_count > 0
    # Reused: a second call on other circles gives that call's pairs.
    x2, y2, r2, *_ = pile(2, 500)
    assert np.array_equal(finder.find(sc.Circles(x2, y2, r2)),
                          sc.reference.find_pairs(sc.Circles(x2, y2, r2)))


@pytest.mark.parametrize("margin", [0.0, 0.1])
def test_push_out_all_matches_the_brute_force(isa, margin):
    rng = np.random.default_rng(3)
    boxes = sc.Boxes(*random_boxes(rng, 200, spread=25.0))
    grid = sc.StaticBoxGrid(boxes)
    assert len(grid) == 200 and grid.cell_count > 0
    assert all(same_bits(a, b) for a, b in zip(
        (grid.boxes.min_x, grid.boxes.max_y), (boxes.min_x, boxes.max_y)))
    x, y, r, *_ = pile(4)
    gx, gy = copies((x, y))
    pushes = sc.push_out_all(sc.Circles(gx, gy, r), grid, margin)
    expected = sc.reference.push_out_all(sc.Circles(x, y, r), boxes, margin)
    assert pushes == expected and pushes > 100
    assert same_bits(gx, x) and same_bits(gy, y)


def test_sweep_all_matches_the_brute_force(isa):
    rng = np.random.default_rng(5)
    boxes = sc.Boxes(*random_boxes(rng, 200, spread=25.0))
    grid = sc.StaticBoxGrid(boxes)
    x, y, r, *_ = pile(4)
    dx = f32(rng.uniform(-8.0, 8.0, len(x)))
    dy = f32(rng.uniform(-8.0, 8.0, len(x)))
    got = sc.sweep_all(sc.Circles(x, y, r), dx, dy, grid)
    expected = sc.reference.sweep_all(sc.Circles(x, y, r), dx, dy, boxes)
    assert got[4] == expected[4] and got[4] > 100
    assert all(same_bits(a, b) for a, b in zip(got[:4], expected[:4]))
    missed = got[3] == sc.no_box
    assert np.all(got[0][missed] == 1.0) and np.all(got[0][~missed] <= 1.0)


@pytest.mark.parametrize("count", [1, 2, 3])
def test_workers_give_the_bits_without_them(isa, count):
    workers = sc.Workers(count)
    assert workers.count == count
    rng = np.random.default_rng(6)
    boxes = sc.Boxes(*random_boxes(rng, 300, spread=200.0))
    grid = sc.StaticBoxGrid(boxes)
    n = 40000  # enough circles that the pair search goes on the workers
    x, y = f32(rng.uniform(0.0, 200.0, n)), f32(rng.uniform(0.0, 200.0, n))
    r = f32(rng.uniform(0.2, 0.6, n))
    r[::97] = 3.0
    finder = sc.PairFinder()
    pairs = finder.find(sc.Circles(x, y, r), 0.1, workers=workers)
    assert len(pairs) > 1000
    assert np.array_equal(pairs, sc.PairFinder().find(sc.Circles(x, y, r), 0.1))
    dx = f32(rng.uniform(-8.0, 8.0, len(x)))
    dy = f32(rng.uniform(-8.0, 8.0, len(x)))
    got = sc.sweep_all(sc.Circles(x, y, r), dx, dy, grid, workers=workers)
    expected = sc.sweep_all(sc.Circles(x, y, r), dx, dy, grid)
    assert got[4] == expected[4] and got[4] > 100
    assert all(same_bits(a, b) for a, b in zip(got[:4], expected[:4]))
    wx, wy = copies((x, y))
    pushes = sc.push_out_all(sc.Circles(wx, wy, r), grid, 0.1, workers=workers)
    assert pushes == sc.push_out_all(sc.Circles(x, y, r), grid, 0.1) and pushes > 100
    assert same_bits(wx, x) and same_bits(wy, y)


def test_bad_workers_are_refused():
    for count in (0, -1, 257):
        with pytest.raises(ValueError, match="count is"):
            sc.Workers(count)
    x, y, r, *_ = pile(8, 100)
    with pytest.raises(TypeError):
        sc.PairFinder().find(sc.Circles(x, y, r), workers=3)


def test_grid_candidates_are_ascending_and_hold_the_touching_boxes():
    boxes = sc.Boxes(f32([0, 10, 0.5]), f32([0, 10, 0.5]), f32([1, 11, 0.6]), f32([1, 11, 0.6]))
    grid = sc.StaticBoxGrid(boxes)
    found = grid.candidates(0.5, 0.5, 0.1)
    assert found.dtype == np.uint32
    assert list(found) == sorted(set(found)) and {0, 2} <= set(found.tolist())


@pytest.mark.parametrize("weighting", ["inverse_mass", "equal", "by_radius"])
def test_separate_in_order_matches_the_reference(isa, weighting):
    x, y, r, im, vx, vy = pile(5)
    pairs = sc.PairFinder().find(sc.Circles(x, y, r))
    grouper = sc.PairGrouper()
    groups = grouper.group(pairs, len(x))
    assert groups.circle_count == len(x)
    assert groups.ends[-1] == len(pairs)
    assert sorted(map(tuple, groups.pairs.tolist())) == sorted(map(tuple, pairs.tolist()))
    ax, ay = copies((x, y))
    sc.separate_in_order(sc.Particles(ax, ay, r, im), groups, weighting, rounds=2)
    sc.reference.separate_in_order(sc.Particles(x, y, r, im), groups, weighting, rounds=2,
                                   workspace=sc.SeparationWorkspace())
    assert same_bits(ax, x) and same_bits(ay, y)
    assert not same_bits(ax, pile(5)[0])  # it moved circles


@pytest.mark.parametrize("count", [1, 3])
def test_separate_in_order_over_blocks_matches_the_reference_on_workers(isa, count):
    rng = np.random.default_rng(12)
    n = 20000
    x = f32(0.9 * (np.arange(n) % 100) + rng.uniform(0.0, 0.1, n))
    y = f32(0.9 * (np.arange(n) // 100) + rng.uniform(0.0, 0.1, n))
    r = f32(rng.uniform(0.45, 0.55, n))
    im = f32(rng.uniform(0.5, 1.5, n))
    pairs = sc.PairFinder().find(sc.Circles(x, y, r))
    blocks = sc.PairBlocks()
    blocks.cut(pairs, n, 4096, workers=sc.Workers(2))
    assert (blocks.circle_count, blocks.block_circles, blocks.blocks) == (n, 4096, 5)
    ax, ay = copies((x, y))
    sc.separate_in_order(sc.Particles(ax, ay, r, im), blocks, "equal", rounds=2,
                         workers=sc.Workers(count))
    sc.reference.separate_in_order(sc.Particles(x, y, r, im), blocks, "equal", rounds=2)
    assert same_bits(ax, x) and same_bits(ay, y)
    assert not same_bits(ax, f32(0.9 * (np.arange(n) % 100)))
    with pytest.raises(ValueError, match="block_circles"):
        blocks.cut(pairs, n, 1000)
    with pytest.raises(ValueError, match="circles"):
        sc.separate_in_order(sc.Particles(x[:10], y[:10], r[:10], im[:10]), blocks)


def test_validate_names_the_first_invalid_element():
    x = f32([0, 1, 2])
    ok, index, why = sc.validate(sc.Circles(x, x, f32([1, -1, 1])))
    assert not ok and index == 1 and "radius" in why
    ok, index, why = sc.validate(sc.Boxes(x, x, f32([1, 0, 3]), x))
    assert not ok and index == 1
    ok, _, _ = sc.validate(sc.Particles(x, x, f32([1, 1, 1]), f32([0, 1, 2]), x, x))
    assert ok
    ok, index, why = sc.validate(sc.Particles(x, x, inverse_mass=f32([0, -1, 2])))
    assert not ok and index == 1 and "inverse" in why
