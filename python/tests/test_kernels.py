"""Every kernel from Python: the bits of the scalar reference on every instruction set, and
in place (the caller's arrays are the ones written, no copy)."""
import numpy as np
import pytest

import simdcollide as sc
from conftest import copies, f32, random_boxes, random_circles, random_particles, same_bits

N = 1003  # not a multiple of any lane count: the tails run too


def data(seed=1, n=N):
    rng = np.random.default_rng(seed)
    x, y, r = random_circles(rng, n)
    # Centres exactly on a box's corner, face and inside it, and coincident circles.
    b = random_boxes(rng, n)
    x[3], y[3] = b[0][3], b[1][3]
    x[4], y[4] = b[2][4], f32([(b[1][4] + b[3][4]) / 2])[0]
    x[5], y[5] = f32([(b[0][5] + b[2][5]) / 2])[0], f32([(b[1][5] + b[3][5]) / 2])[0]
    p = random_particles(rng, n)
    q = random_particles(rng, n)
    q[0][6], q[1][6] = p[0][6], p[1][6]  # coincident centres
    # Pairs into p: random, each a != b, with repeats of circles across pairs.
    a = rng.integers(0, n, 4 * n)
    c = (a + rng.integers(1, n, 4 * n)) % n
    pairs = np.ascontiguousarray(np.stack([a, c], axis=1).astype(np.uint32))
    # Inverse masses of the boxes and of the second boxes, some static.
    box_mass = (f32(rng.uniform(0.0, 2.0, n)), f32(rng.uniform(0.0, 2.0, n)))
    box_mass[0][::7] = 0.0
    box_mass[1][::5] = 0.0
    return dict(circles=(x, y, r), boxes=b, p=p, q=q, pairs=pairs, box_mass=box_mass)


def circles(d):
    return sc.Circles(*d["circles"])


def boxes(d):
    return sc.Boxes(*d["boxes"])


def second_boxes(d):
    """Boxes near the first ones: each box moved by up to its own size on each axis."""
    min_x, min_y, max_x, max_y = d["boxes"]
    rng = np.random.default_rng(7)
    dx = f32((max_x - min_x) * rng.uniform(-1.2, 1.2, len(min_x)))
    dy = f32((max_y - min_y) * rng.uniform(-1.2, 1.2, len(min_y)))
    return sc.Boxes(f32(min_x + dx), f32(min_y + dy), f32(max_x + dx), f32(max_y + dy))


def box_bodies(d):
    return sc.BoxBodies(*d["boxes"], d["box_mass"][0])


def second_box_bodies(d):
    s = second_boxes(d)
    return sc.BoxBodies(s.min_x, s.min_y, s.max_x, s.max_y, d["box_mass"][1])


def box_separated(m, d, weighting):
    a, b = box_bodies(d), second_box_bodies(d)
    moved = m.separate(a, b, weighting)
    return [moved, a.min_x, a.min_y, a.max_x, a.max_y, b.min_x, b.min_y, b.max_x, b.max_y]


def box_separated_from_one_box(m, d):
    a = box_bodies(d)
    moved = m.separate(a, ONE_BOX)
    return [moved, a.min_x, a.min_y, a.max_x, a.max_y]


def particles(arrays):
    x, y, r, im, vx, vy = arrays
    return sc.Particles(x, y, r, im, vx, vy)


ONE_BOX = sc.AABB(-1.5, -2.0, 3.0, 0.5)

# Each case runs one kernel through module m (simdcollide or simdcollide.reference) on
# fresh copies of the data, returning everything it wrote and returned.
CASES = {
    "closest_point": lambda m, d: m.closest_point(circles(d), boxes(d)),
    "closest_point_one_box": lambda m, d: m.closest_point(circles(d), ONE_BOX),
    "box_distance_squared": lambda m, d: [m.distance_squared(circles(d), boxes(d))],
    "box_distance_squared_one_box": lambda m, d: [m.distance_squared(circles(d), ONE_BOX)],
    "box_overlap": lambda m, d: m.overlap(circles(d), boxes(d)),
    "box_overlap_margin": lambda m, d: m.overlap(circles(d), boxes(d), margin=0.25),
    "box_overlap_one_box": lambda m, d: m.overlap(circles(d), ONE_BOX, margin=0.1),
    "box_count_overlaps": lambda m, d: [m.count_overlaps(circles(d), boxes(d), 0.1)],
    "box_count_overlaps_one_box": lambda m, d: [m.count_overlaps(circles(d), ONE_BOX)],
    "box_contact": lambda m, d: contact_fields(m.contact(circles(d), boxes(d))),
    "box_contact_margin": lambda m, d: contact_fields(m.contact(circles(d), boxes(d), margin=0.5)),
    "box_contact_one_box": lambda m, d: contact_fields(m.contact(circles(d), ONE_BOX)),
    "push_out": lambda m, d: [m.push_out(circles(d), boxes(d)), *d["circles"][:2]],
    "push_out_margin": lambda m, d: [m.push_out(circles(d), boxes(d), 0.3), *d["circles"][:2]],
    "push_out_one_box": lambda m, d: [m.push_out(circles(d), ONE_BOX), *d["circles"][:2]],
    "box_box_overlap": lambda m, d: m.overlap(boxes(d), second_boxes(d)),
    "box_box_overlap_margin": lambda m, d: m.overlap(boxes(d), second_boxes(d), margin=0.25),
    "box_box_overlap_one_box": lambda m, d: m.overlap(boxes(d), ONE_BOX, margin=0.1),
    "box_box_count_overlaps": lambda m, d: [m.count_overlaps(boxes(d), second_boxes(d), 0.1)],
    "box_box_count_overlaps_one_box": lambda m, d: [m.count_overlaps(boxes(d), ONE_BOX)],
    "box_box_contact": lambda m, d: contact_fields(m.contact(boxes(d), second_boxes(d))),
    "box_box_contact_margin": lambda m, d: contact_fields(
        m.contact(boxes(d), second_boxes(d), margin=0.5)),
    "box_box_contact_one_box": lambda m, d: contact_fields(m.contact(boxes(d), ONE_BOX)),
    "box_box_separate": lambda m, d: box_separated(m, d, "inverse_mass"),
    "box_box_separate_equal": lambda m, d: box_separated(m, d, "equal"),
    "box_box_separate_by_radius": lambda m, d: box_separated(m, d, "by_radius"),
    "box_box_separate_one_box": lambda m, d: box_separated_from_one_box(m, d),
    "circle_distance_squared": lambda m, d: [
        m.distance_squared(particles(d["p"]), particles(d["q"]))],
    "circle_overlap": lambda m, d: m.overlap(particles(d["p"]), particles(d["q"])),
    "circle_count_overlaps": lambda m, d: [
        m.count_overlaps(particles(d["p"]), particles(d["q"]))],
    "circle_contact": lambda m, d: contact_fields(m.contact(particles(d["p"]), particles(d["q"]))),
    "separate": lambda m, d: separated(m, d, "inverse_mass"),
    "separate_equal": lambda m, d: separated(m, d, "equal"),
    "separate_by_radius": lambda m, d: separated(m, d, "by_radius"),
    "pair_contact": lambda m, d: contact_fields(m.contact(particles(d["p"]), d["pairs"])),
    "pair_contact_workspace": lambda m, d: contact_fields(
        m.contact(particles(d["p"]), d["pairs"], workspace=sc.SeparationWorkspace())),
    "pair_separate": lambda m, d: [m.separate(particles(d["p"]), d["pairs"]), *d["p"][:2]],
    "pair_separate_equal_workspace": lambda m, d: [
        m.separate(particles(d["p"]), d["pairs"], "equal", sc.SeparationWorkspace()),
        *d["p"][:2]],
    "respond_box": lambda m, d: responded_to_box(m, d),
    "respond_pairs": lambda m, d: responded_pairs(m, d),
    "sweep_boxes": lambda m, d: list(m.sweep(circles(d), *moves(d), boxes(d))),
    "sweep_one_box": lambda m, d: list(m.sweep(circles(d), *moves(d), ONE_BOX)),
    "sweep_circles": lambda m, d: list(m.sweep(circles(d), *moves(d), particles(d["q"]))),
}


def moves(d):
    """Each circle moved towards its box's centre, short of it and past it."""
    x, y, _ = d["circles"]
    b = d["boxes"]
    scale = np.linspace(0.0, 3.0, len(x), dtype=np.float32)
    return f32((b[0] + b[2]) / 2 - x) * scale, f32((b[1] + b[3]) / 2 - y) * scale


def contact_fields(result):
    contacts, count = result
    return [count, contacts.normal_x, contacts.normal_y, contacts.depth, contacts.point_x,
            contacts.point_y]


def separated(m, d, weighting):
    count = m.separate(particles(d["p"]), particles(d["q"]), weighting)
    return [count, *d["p"][:2], *d["q"][:2]]


def responded_to_box(m, d):
    contacts, _ = sc.reference.contact(circles(d), boxes(d))
    p = particles(d["p"])
    count = m.respond(p, contacts, restitution=0.5, friction=0.3)
    return [count, p.vx, p.vy]


def responded_pairs(m, d):
    contacts, _ = sc.reference.contact(particles(d["p"]), particles(d["q"]))
    a, b = particles(d["p"]), particles(d["q"])
    count = m.respond(a, b, contacts, 0.25, 0.6)
    return [count, a.vx, a.vy, b.vx, b.vy]


def fresh(d):
    return {k: (copies(v) if isinstance(v, tuple) else np.array(v, copy=True))
            for k, v in d.items()}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("seed", [1, 2])
def test_kernel_gives_the_reference_bits(isa, case, seed):
    d = data(seed)
    expected = CASES[case](sc.reference, fresh(d))
    got = CASES[case](sc, fresh(d))
    assert len(got) == len(expected)
    for k, (g, e) in enumerate(zip(got, expected)):
        if isinstance(e, np.ndarray):
            assert same_bits(g, e), f"{case}: output {k} differs on {isa}"
        else:
            assert g == e, f"{case}: result {k} differs on {isa}"
    # Something was computed: not every output is zeros.
    assert any(np.any(np.asarray(e) != 0) for e in expected)


def test_forcing_the_reference_set_runs_the_reference():
    d = data(3)
    sc.set_isa("reference")
    try:
        for case in ("box_contact", "pair_separate", "respond_pairs"):
            got = CASES[case](sc, fresh(d))
            expected = CASES[case](sc.reference, fresh(d))
            assert all(same_bits(np.asarray(g), np.asarray(e)) for g, e in zip(got, expected))
    finally:
        sc.reset_isa()


def address(a):
    return a.__array_interface__["data"][0]


def test_outputs_passed_in_are_written_in_place(isa):
    d = data(4)
    c = circles(d)
    out = np.full(N, -1.0, dtype=np.float32)
    at = address(out)
    returned = sc.distance_squared(c, boxes(d), out=out)
    assert returned is out and address(out) == at
    assert same_bits(out, sc.reference.distance_squared(c, boxes(d)))

    mask = np.full(N, 7, dtype=np.uint8)
    returned, count = sc.overlap(c, boxes(d), mask=mask)
    assert returned is mask and set(np.unique(mask)) <= {0, 1} and count == int(mask.sum())
    as_bool = np.zeros(N, dtype=bool)
    sc.overlap(c, boxes(d), mask=as_bool)
    assert np.array_equal(as_bool, mask.astype(bool))

    contacts = sc.Contacts.zeros(N)
    depth_at = address(contacts.depth)
    returned, count = sc.contact(c, boxes(d), out=contacts)
    assert returned.depth is contacts.depth and address(contacts.depth) == depth_at
    assert count == int(np.count_nonzero(contacts.depth > 0))

    ox, oy = np.zeros(N, np.float32), np.zeros(N, np.float32)
    rx, ry = sc.closest_point(c, boxes(d), out_x=ox, out_y=oy)
    assert rx is ox and ry is oy


def test_push_out_moves_the_callers_circles_in_place(isa):
    x = f32([0.0, 5.0, 0.5])
    y = f32([0.0, 5.0, 0.9])
    r = f32([0.5, 0.5, 0.5])
    at = address(x)
    moved = sc.push_out(sc.Circles(x, y, r), sc.AABB(-1, -1, 1, 1))
    assert moved == 2 and address(x) == at
    # The first leaves through the top face (ties go to y faces), the third through its top.
    assert (x[0], y[0]) == (0.0, 1.5)
    assert x[1] == 5.0 and y[1] == 5.0
    assert y[2] == np.float32(1.5)


def test_box_separation_moves_the_callers_bounds(isa):
    # Overlap 0.25 on x and 0.75 on y: apart along x, by shares of their inverse masses.
    a = sc.BoxBodies(f32([0.0]), f32([0.0]), f32([1.0]), f32([1.0]), f32([1.0]))
    b = sc.BoxBodies(f32([0.75]), f32([0.25]), f32([1.75]), f32([1.25]), f32([1.0]))
    at = address(a.min_x)
    assert sc.separate(a, b) == 1 and address(a.min_x) == at
    assert (a.min_x[0], a.max_x[0], b.min_x[0], b.max_x[0]) == (-0.125, 0.875, 0.875, 1.875)
    assert (a.min_y[0], a.max_y[0], b.min_y[0], b.max_y[0]) == (0.0, 1.0, 0.25, 1.25)
    # Once apart, nothing moves.
    assert sc.separate(a, b) == 0
    # A static second box does not move; the first moves the whole depth.
    c = sc.BoxBodies(f32([0.0]), f32([0.0]), f32([1.0]), f32([1.0]), f32([1.0]))
    d = sc.BoxBodies(f32([0.75]), f32([0.25]), f32([1.75]), f32([1.25]), f32([0.0]))
    sc.separate(c, d, "equal")
    assert (c.min_x[0], c.max_x[0], d.min_x[0]) == (-0.25, 0.75, 0.75)
    # Against one fixed box.
    e = sc.BoxBodies(f32([0.75]), f32([0.25]), f32([1.75]), f32([1.25]), f32([2.0]))
    assert sc.separate(e, sc.AABB(0.0, 0.0, 1.0, 1.0)) == 1
    assert (e.min_x[0], e.max_x[0]) == (1.0, 2.0)


def test_box_separation_refuses_bad_arrays():
    a = sc.BoxBodies(*(f32(np.zeros(3)) for _ in range(5)))
    b = sc.BoxBodies(*(f32(np.zeros(4)) for _ in range(5)))
    with pytest.raises(ValueError):
        sc.separate(a, b)
    with pytest.raises(ValueError):
        sc.BoxBodies(*(f32(np.zeros(3)) for _ in range(4)), f32(np.zeros(2)))
    with pytest.raises(ValueError):
        sc.separate(a, b, "heaviest")
    frozen = f32(np.zeros(3))
    frozen.flags.writeable = False
    c = sc.BoxBodies(frozen, *(f32(np.zeros(3)) for _ in range(4)))
    with pytest.raises(ValueError, match="min_x"):
        sc.separate(c, sc.AABB(0.0, 0.0, 1.0, 1.0))


def test_the_world_fields_are_kernel_inputs(isa):
    w = sc.World()
    w.add_circles(f32([0.0, 0.5]), f32([0.0, 0.0]), f32([0.5, 0.5]), 1.0)
    p = w.particles()
    moved = sc.separate(p, np.array([[0, 1]], dtype=np.uint32))
    assert moved == 2
    assert w.x[0] < 0.0 and w.x[1] > 0.5


def test_ray_casts_and_region_queries_have_the_references_bits():
    rng = np.random.default_rng(12)
    n, m = 500, 300
    c = sc.Circles(f32(rng.uniform(0, 20, m)), f32(rng.uniform(0, 20, m)), f32(rng.uniform(0, 1, m)))
    lo = rng.uniform(0, 20, (2, m))
    b = sc.Boxes(f32(lo[0]), f32(lo[1]), f32(lo[0] + rng.uniform(0, 2, m)),
                 f32(lo[1] + rng.uniform(0, 2, m)))
    x, y = f32(rng.uniform(-2, 22, n)), f32(rng.uniform(-2, 22, n))
    dx, dy = f32(rng.uniform(-10, 10, n)), f32(rng.uniform(-10, 10, n))
    for shapes in (c, b):
        got = sc.cast_rays(x, y, dx, dy, shapes)
        want = sc.reference.cast_rays(x, y, dx, dy, shapes)
        assert got.count == want.count > n // 4
        for field in ("fraction", "point_x", "point_y", "normal_x", "normal_y"):
            assert same_bits(getattr(got, field), getattr(want, field))
        assert (got.shape == want.shape).all()
        assert ((got.shape == 0xFFFFFFFF) == (got.fraction == 1.0)).sum() >= n - got.count
    region = sc.AABB(5.0, 5.0, 9.0, 8.0)
    inside = sc.circles_in_region(c, region)
    assert list(inside) == list(sc.reference.circles_in_region(c, region)) and len(inside) > 0
    near = sc.circles_near_point(c, 10.0, 10.0, 1.0)
    d = np.hypot(c.x[near] - 10.0, c.y[near] - 10.0)
    assert (d <= c.radius[near] + 1.0 + 1e-5).all()
    assert list(sc.boxes_in_region(b, region)) == list(sc.reference.boxes_in_region(b, region))
    assert list(sc.boxes_near_point(b, 10.0, 10.0)) == list(sc.reference.boxes_near_point(b, 10.0, 10.0))
    with pytest.raises(ValueError, match="ray 0"):
        sc.cast_rays(f32([np.inf]), f32([0.0]), f32([1.0]), f32([0.0]), c)
