"""The world from Python: the bits of the same world stepped from C++, its fields as arrays
over its memory, and the GIL released while it steps."""
import os
import subprocess
import threading

import numpy as np
import pytest

import simdcollide as sc
from conftest import f32, same_bits

TWIN = os.environ.get("SIMDCOLLIDE_WORLD_TWIN")


def scene(n, seed=7):
    """n circles above the floor of a container 20 wide, some static, all with some speed."""
    rng = np.random.default_rng(seed)
    columns = 40
    x = f32(-9.5 + 0.48 * (np.arange(n) % columns) + rng.uniform(-0.02, 0.02, n))
    y = f32(0.5 + 0.48 * (np.arange(n) // columns) + rng.uniform(-0.02, 0.02, n))
    r = f32(rng.uniform(0.18, 0.24, n))
    im = f32(rng.uniform(0.5, 2.0, n))
    im[::50] = 0.0
    vx = f32(rng.normal(0.0, 1.0, n))
    vy = f32(rng.normal(0.0, 1.0, n))
    boxes = (f32([-11, -11, 10]), f32([-1, -1, -1]), f32([11, -10, 11]), f32([0, 40, 40]))
    return (x, y, r, im, vx, vy), boxes


def python_world(circles, boxes, steps, dt, **options):
    w = sc.World(**options)
    w.add_circles(*circles)
    w.set_boxes(*boxes)
    for _ in range(steps):
        w.step(dt)
    return w


def cpp_world(tmp_path, circles, boxes, steps, dt, isa, crates=None, **options):
    """The circles' x, y, vx, vy, and the crates' (dynamic boxes given as min_x, min_y,
    max_x, max_y, inverse_mass, vx, vy) centres and velocities, after the same steps in C++."""
    assert TWIN, "SIMDCOLLIDE_WORLD_TWIN must name simdcollide_world_twin (CTest sets it)"
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    crates = crates or tuple(np.zeros(0, np.float32) for _ in range(7))
    n, b, d = len(circles[0]), len(boxes[0]), len(crates[0])
    with open(src, "wb") as f:
        f.write(np.array([n, b, d], dtype=np.uint64).tobytes())
        for a in (*circles, *boxes, *crates):
            f.write(a.tobytes())
    args = [TWIN, str(src), str(dst), str(steps), repr(dt)]
    args += [f"{k}={v}" for k, v in options.items()]
    subprocess.run(args, check=True, env={**os.environ, "SIMDCOLLIDE_ISA": isa})
    out = np.fromfile(dst, dtype=np.float32)
    return out[:4 * n].reshape(4, n), out[4 * n:].reshape(4, d)


@pytest.mark.parametrize("options", [
    {},
    {"substeps": 8, "relax_iterations": 2, "contact_hertz": 60.0},
    {"restitution": 0.5, "friction": 0.6, "contact_damping_ratio": 5.0},
    {"workers": 3},
], ids=["defaults", "fine", "bouncy", "workers"])
def test_a_world_stepped_from_python_has_the_bits_of_cpp(isa, tmp_path, options):
    circles, boxes = scene(2500)
    dt = 1.0 / 60.0
    w = python_world(circles, boxes, 40, dt, **options)
    expected, _ = cpp_world(tmp_path, circles, boxes, 40, np.float32(dt), isa,
                            **{k: v for k, v in options.items() if k != "workers"})
    for field, e in zip((w.x, w.y, w.vx, w.vy), expected):
        assert same_bits(field, e)
    assert not same_bits(w.y, circles[1])  # it moved


def test_fields_are_views_of_the_worlds_memory():
    circles, boxes = scene(300)
    w = sc.World()
    first = w.add_circles(*circles[:4])  # no velocities: they start at rest
    assert first == 0 and len(w) == 300
    w.vx[:] = circles[4]
    w.vy[:] = circles[5]
    w.set_boxes(*boxes)
    with_velocities = python_world(circles, boxes, 0, 0.0)
    assert same_bits(w.vx, with_velocities.vx)
    for _ in range(10):
        w.step(1 / 60)
        with_velocities.step(1 / 60)
    assert same_bits(w.x, with_velocities.x) and same_bits(w.vy, with_velocities.vy)
    x = w.x
    assert np.shares_memory(x, w.x) and x.base is not None
    assert same_bits(w.radius, circles[2]) and same_bits(w.inverse_mass, circles[3])
    p = w.particles()
    assert np.shares_memory(p.vx, w.vx)


def test_world_keeps_what_a_user_sets_and_reads():
    w = sc.World(gravity_y=np.float32(-3.0), substeps=np.int64(6), max_push_speed=2.0,
                 workers=2)
    o = w.options
    assert o["gravity_y"] == -3.0 and o["substeps"] == 6 and o["max_push_speed"] == 2.0
    assert o["workers"] == 2 and o["friction"] == np.float32(0.2)
    assert w.add_circles([5.0, 6.0], [1.0, 1.0], [0.5, 0.5], np.float32(0.0)) == 0
    assert list(w.inverse_mass) == [0.0, 0.0]
    w.remove_circles(np.array([True, True]))
    assert w.add_circle(0.0, 1.0, 0.5) == 0
    assert w.add_circle(0.9, 1.0, 0.5, inverse_mass=0.0) == 1
    w.set_boxes(sc.Boxes(f32([-5]), f32([-1]), f32([5]), f32([0])))
    assert len(w.boxes) == 1 and w.boxes.max_x[0] == 5.0
    w.step(1 / 60)
    assert w.listed_pairs().tolist() == [[0, 1]] and w.last_pair_count == 1
    assert w.listings[0] >= 1
    assert w.remove_circles(np.array([True, False])) == 1
    assert len(w) == 1 and w.inverse_mass[0] == 0.0
    w.remove_circle(0)
    assert len(w) == 0 and w.x.shape == (0,)


def test_a_fast_circle_stops_at_a_thin_wall_with_sweeping_on_or_off():
    ends = []
    for sweep_from in (0.5, np.inf):
        w = sc.World(gravity_y=0.0, sweep_from=sweep_from)
        assert w.options["sweep_from"] == np.float32(sweep_from)
        w.set_boxes(f32([0.0]), f32([-100.0]), f32([0.001]), f32([100.0]))
        w.add_circle(-1.0, 0.0, 0.05, vx=5000.0)
        for _ in range(10):
            w.step(1 / 60)
        ends.append(float(w.x[0]))
    # stopped by the wall: swept, or, with sweeping off, by its listed contact with the wall
    # (a contact not yet touching lets the circle close the gap and no more)
    assert ends[0] < 0.0 and ends[1] < 0.0
    with pytest.raises(ValueError):
        sc.World(sweep_from=-1.0)


def test_a_kinematic_paddle_pushes_a_circle_and_bad_boxes_are_refused():
    w = sc.World(gravity_y=0.0)
    w.add_circle(1.0, 0.0, 0.1)
    assert w.add_kinematic_box(sc.AABB(-0.1, -1.0, 0.0, 1.0), vx=100.0) == 0
    for _ in range(10):
        w.step(1 / 60)
    box, vx, vy = w.kinematic_box(0)
    assert (vx, vy) == (100.0, 0.0)
    assert w.x[0] > box.max_x  # pushed ahead, never passed
    assert w.vx[0] == pytest.approx(100.0, rel=1e-3)
    w.move_kinematic_box(0, sc.AABB(50.0, -1.0, 50.1, 1.0))
    w.step(1 / 60)
    assert w.kinematic_box(0)[0].min_x == np.float32(50.0)
    with pytest.raises(ValueError, match="kinematic box 0"):
        w.set_kinematic_velocity(0, np.nan, 0.0)
    with pytest.raises(ValueError, match="inverted"):
        w.add_kinematic_box(sc.AABB(1.0, 0.0, 0.0, 1.0))
    with pytest.raises(IndexError):
        w.remove_kinematic_box(1)
    w.remove_kinematic_box(0)
    assert w.kinematic_box_count == 0


def test_rays_and_queries_find_the_worlds_shapes_by_kind():
    w = sc.World(gravity_y=0.0)
    w.set_boxes([-1.0], [-1.0], [10.0], [0.0])
    w.add_circle(2.0, 1.0, 0.5)
    w.add_circle(5.0, 1.0, 0.5)
    w.add_kinematic_box(sc.AABB(7.0, 0.5, 8.0, 1.5))
    w.add_dynamic_box(sc.AABB(3.0, 4.0, 4.0, 5.0), 1.0)
    hits = w.cast_rays(
        x=[0.0, 5.0, 6.0, 3.5, 20.0],
        y=[1.0, 3.0, 1.0, 8.0, 20.0],
        dx=[10.0, 0.0, 5.0, 0.0, 1.0],
        dy=[0.0, -5.0, 0.0, -4.0, 0.0],
    )
    assert list(hits.kind) == [
        int(sc.ShapeKind.CIRCLE),
        int(sc.ShapeKind.CIRCLE),
        int(sc.ShapeKind.KINEMATIC_BOX),
        int(sc.ShapeKind.DYNAMIC_BOX),
        int(sc.ShapeKind.NONE),
    ]
    assert list(hits.shape[:4]) == [0, 1, 0, 0]
    assert hits.shape[4] == 0xFFFFFFFF
    assert hits.fraction[0] == pytest.approx(0.15)
    assert (hits.normal_x[0], hits.normal_y[0]) == pytest.approx((-1.0, 0.0))
    assert hits.point_y[1] == pytest.approx(1.5)
    assert hits.fraction[3] == pytest.approx(0.75)
    assert hits.fraction[4] == 1.0
    kinds, indices = w.query_region(sc.AABB(1.0, -0.5, 3.5, 4.0))
    assert list(kinds) == [int(sc.ShapeKind.CIRCLE), int(sc.ShapeKind.STATIC_BOX),
                           int(sc.ShapeKind.DYNAMIC_BOX)]
    assert list(indices) == [0, 0, 0]
    kinds, indices = w.query_point(5.0, 1.0)
    assert list(kinds) == [int(sc.ShapeKind.CIRCLE)] and list(indices) == [1]
    # A query's filter: circle 0 in category 2 is not seen by a query that leaves bit 2 out.
    w.set_filter(sc.ShapeKind.CIRCLE, 0, 2, 0xFFFFFFFFFFFFFFFF)
    past = w.cast_rays([0.0], [1.0], [10.0], [0.0], mask=0xFFFFFFFFFFFFFFFD)
    assert (past.kind[0], past.shape[0]) == (int(sc.ShapeKind.CIRCLE), 1)
    assert past.fraction[0] == pytest.approx(0.45)
    kinds, indices = w.query_point(2.0, 1.0, 0.0, mask=0xFFFFFFFFFFFFFFFD)
    assert len(kinds) == 0
    with pytest.raises(ValueError, match="ray 0"):
        w.cast_rays([np.nan], [0.0], [1.0], [0.0])
    with pytest.raises(ValueError, match="distance"):
        w.query_point(0.0, 0.0, -1.0)


def test_materials_per_body_make_a_circle_bounce_and_bad_ones_are_refused():
    w = sc.World()
    w.set_boxes([-10.0], [-1.0], [10.0], [0.0])
    w.add_circle(-2.0, 2.0, 0.2)
    w.add_circle(2.0, 2.0, 0.2)
    w.set_material(sc.ShapeKind.CIRCLE, 0, 0.2, 0.9)
    assert w.material(sc.ShapeKind.CIRCLE, 0) == pytest.approx((0.2, 0.9))
    assert w.material(sc.ShapeKind.STATIC_BOX, 0) == pytest.approx((0.2, 0.0))
    highest = [0.0, 0.0]
    for s in range(150):
        w.step(1 / 60)
        if s > 45:
            highest = [max(h, y) for h, y in zip(highest, w.y)]
    assert highest[0] > 1.2 and highest[1] < 0.25
    w.set_circle_materials([0.5, 0.6], 0.0)
    assert w.material(sc.ShapeKind.CIRCLE, 1) == pytest.approx((0.6, 0.0))
    with pytest.raises(ValueError, match="circle 1"):
        w.set_material(sc.ShapeKind.CIRCLE, 1, -1.0, 0.0)
    with pytest.raises(IndexError):
        w.set_material(sc.ShapeKind.DYNAMIC_BOX, 0, 0.2, 0.0)


def test_filters_let_two_rows_pass_through_each_other():
    w = sc.World()
    w.set_boxes([-20.0], [-1.0], [20.0], [0.0])
    for i in range(20):
        w.add_circle(float(i % 10), 1.0 if i < 10 else 3.0, 0.3)
    w.set_circle_filters(np.array([2] * 10 + [4] * 10, dtype=np.uint64),
                         np.array([3] * 10 + [5] * 10, dtype=np.uint64))
    assert w.filter(sc.ShapeKind.CIRCLE, 12) == (4, 5)
    for _ in range(180):
        w.step(1 / 60)
    assert np.allclose(w.y, 0.3, atol=0.02)
    w.set_filter(sc.ShapeKind.STATIC_BOX, 0, 8, 0)
    for _ in range(60):
        w.step(1 / 60)
    assert (w.y < -1.0).all()
    with pytest.raises(IndexError):
        w.set_filter(sc.ShapeKind.CIRCLE, 20, 1, 1)


def crate_stack(count=6):
    """Crates 1 wide and 0.5 high stacked a little apart above the floor of scene(), some
    heavier, one moving: min_x, min_y, max_x, max_y, inverse_mass, vx, vy."""
    k = np.arange(count, dtype=np.float32)
    x = f32(-0.5 + 0.1 * k)
    y = f32(20.0 + 0.6 * k)
    inverse_mass = f32(np.where(k % 2 == 0, 1.0, 0.25))
    vx = f32(np.where(k == 3, 2.0, 0.0))
    return (x, y, f32(x + 1.0), f32(y + 0.5), inverse_mass, vx, f32(np.zeros(count)))


def test_crates_stepped_from_python_have_the_bits_of_cpp(isa, tmp_path):
    circles, boxes = scene(400)
    crates = crate_stack()
    dt = 1.0 / 60.0
    w = sc.World(workers=2)
    w.add_circles(*circles)
    w.set_boxes(*boxes)
    for c in zip(*crates):
        w.add_dynamic_box(sc.AABB(*c[:4]), *c[4:])
    for _ in range(60):
        w.step(dt)
    expected, expected_crates = cpp_world(tmp_path, circles, boxes, 60, np.float32(dt), isa,
                                          crates)
    for field, e in zip((w.x, w.y, w.vx, w.vy), expected):
        assert same_bits(field, e)
    d = w.dynamic_boxes()
    for field, e in zip((d.x, d.y, d.vx, d.vy), expected_crates):
        assert same_bits(field, e)
    assert np.all(d.y < f32(crates[1] + 0.25))  # they fell


def test_a_crate_falls_onto_a_floor_and_its_arrays_are_the_worlds():
    w = sc.World()
    w.set_boxes(f32([-5.0]), f32([-1.0]), f32([5.0]), f32([0.0]))
    assert w.dynamic_boxes().x.shape == (0,)
    assert w.add_dynamic_box(sc.AABB(-0.5, 2.0, 0.5, 2.5), inverse_mass=0.5) == 0
    assert w.dynamic_box_count == 1
    for _ in range(120):
        w.step(1 / 60)
    box, inverse_mass, vx, vy = w.dynamic_box(0)
    assert inverse_mass == 0.5
    assert box.min_y == pytest.approx(0.0, abs=0.01)  # resting on the floor
    assert abs(vy) < 0.05 and abs(box.min_x + 0.5) < 1e-4
    d = w.dynamic_boxes()
    assert d.half_width[0] == 0.5 and d.half_height[0] == 0.25
    assert d.x[0] == np.float32(box.min_x / 2 + box.max_x / 2)
    with pytest.raises(ValueError):
        d.half_width[0] = 1.0  # read-only
    d.x[0] = 3.0  # moved in place, between steps
    assert w.dynamic_box(0)[0].min_x == np.float32(2.5)
    w.remove_dynamic_box(0)
    assert w.dynamic_box_count == 0


def test_bad_dynamic_boxes_are_refused_and_change_nothing():
    w = sc.World()
    w.add_dynamic_box(sc.AABB(0.0, 0.0, 1.0, 1.0))
    with pytest.raises(ValueError, match="dynamic box 1"):
        w.add_dynamic_box(sc.AABB(1.0, 0.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="inverse"):
        w.add_dynamic_box(sc.AABB(0.0, 0.0, 1.0, 1.0), inverse_mass=-1.0)
    with pytest.raises(ValueError):
        w.add_dynamic_box(sc.AABB(0.0, 0.0, 1.0, 1.0), vx=np.inf)
    with pytest.raises(IndexError):
        w.remove_dynamic_box(1)
    with pytest.raises(IndexError):
        w.dynamic_box(1)
    assert w.dynamic_box_count == 1


def test_step_releases_the_gil():
    # The first step of a large world (a sort, a full listing) runs long enough for this
    # thread to run many times while it does, if the GIL is released.
    rng = np.random.default_rng(1)
    n = 200_000
    w = sc.World()
    w.add_circles(f32(rng.uniform(0, 400, n)), f32(rng.uniform(0, 400, n)),
                  f32(np.full(n, 0.3)))
    starting = threading.Event()

    def run():
        starting.set()
        w.step(1 / 60)

    t = threading.Thread(target=run)
    t.start()
    starting.wait()
    refused = False
    turns = 0
    while t.is_alive():
        if turns == 0:
            try:
                w.add_circle(0.0, 0.0, 1.0)
            except RuntimeError as e:
                refused = "stepping in another thread" in str(e)
        turns += 1
    t.join()
    assert refused, "adding a circle while the world steps must be refused"
    assert turns > 100, "the step held the GIL"
    assert len(w) == n


def test_contact_events_and_sensors_report_a_dropped_circle():
    w = sc.World(contact_events=True, hit_speed=1.0)
    assert w.options["contact_events"] is True
    w.set_boxes([-10.0], [-1.0], [10.0], [0.0])
    w.add_circle(0.0, 2.0, 0.25)
    sensor = w.add_sensor(sc.AABB(-1.0, 0.0, 1.0, 1.0))
    assert w.sensor_count == 1 and w.sensor(sensor).max_x == 1.0
    began, hits, came = [], [], []
    for _ in range(120):
        w.step(1 / 60)
        e = w.contact_events()
        began += list(zip(e.began.a_kind, e.began.a_index, e.began.b_kind, e.began.b_index))
        assert len(e.ended.a_kind) == 0
        hits += list(e.hits.speed)
        if len(e.hits.speed):
            assert (e.hits.normal_x[0], e.hits.normal_y[0]) == (0.0, -1.0)
        s = w.sensor_events()
        came += list(zip(s.began.sensor, s.began.kind, s.began.index))
    circle, floor = int(sc.ShapeKind.CIRCLE), int(sc.ShapeKind.STATIC_BOX)
    assert began == [(circle, 0, floor, 0)]
    assert len(hits) == 1 and hits[0] == pytest.approx(5.86, abs=0.2)
    touching = w.touching()
    assert list(touching.b_kind) == [floor]
    assert came == [(0, circle, 0)]
    kinds, indices = w.sensor_contents(0)
    assert list(kinds) == [circle] and list(indices) == [0]
    w.move_sensor(0, sc.AABB(3.0, 0.0, 4.0, 1.0))
    w.step(1 / 60)
    gone = w.sensor_events().ended
    assert list(zip(gone.sensor, gone.kind, gone.index)) == [(0, circle, 0)]
    w.remove_sensor(0)
    assert w.sensor_count == 0
    with pytest.raises(IndexError):
        w.sensor_contents(0)
    with pytest.raises(ValueError, match="sensor 0"):
        w.add_sensor(sc.AABB(1.0, 0.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="hit_speed"):
        sc.World(hit_speed=-1.0)
    with pytest.raises(TypeError, match="bool"):
        sc.World(contact_events=1)
    quiet = sc.World()
    quiet.add_circle(0.0, 0.0, 1.0)
    quiet.step(1 / 60)
    assert len(quiet.contact_events().began.a_kind) == 0


def test_a_resting_world_falls_asleep_and_a_dropped_circle_wakes_it():
    w = sc.World(sleep=True, sleep_speed=0.05, sleep_time=0.5)
    assert w.options["sleep"] is True
    w.set_boxes([-10.0], [-1.0], [10.0], [0.0])
    w.add_circles([-1.0, 0.0, 1.0], [0.25, 0.25, 0.25], [0.25, 0.25, 0.25])
    for _ in range(60):
        w.step(1 / 60)
    assert w.sleeping
    y = w.y.copy()
    w.step(1 / 60)
    assert np.array_equal(w.y, y)
    w.add_circle(0.0, 3.0, 0.25)
    w.step(1 / 60)
    assert not w.sleeping
    w.wake()
    with pytest.raises(ValueError, match="sleep_time"):
        sc.World(sleep_time=-1.0)
