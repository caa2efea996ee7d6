// Steps a world from C++ as the Python tests step it from Python, for the test that both
// give the same bits (test_world.py).
//
//   simdcollide_world_twin IN OUT STEPS DT [option=value ...]
//
// IN: the circle count n, static box count b and dynamic box count d (uint64 each), then
// float32 arrays x, y, radius, inverse_mass, vx, vy (n each), min_x, min_y, max_x, max_y
// (b each) and the dynamic boxes' min_x, min_y, max_x, max_y, inverse_mass, vx, vy (d each).
// Options: substeps, relax_iterations, workers (integers) and gravity_y, restitution,
// friction, contact_hertz, contact_damping_ratio (numbers). OUT: the circles' x, y, vx, vy
// (n each), then the dynamic boxes' centres x, y and velocities vx, vy (d each), float32,
// after STEPS steps of DT.
#include <simdcollide/world.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::vector<float> read_floats(std::istream& in, std::uint64_t n) {
    std::vector<float> v(n);
    in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(float)));
    return v;
}

void set_option(simdcollide::world_options& o, const std::string& key, const std::string& value) {
    if (key == "substeps") {
        o.substeps = std::stoi(value);
    } else if (key == "relax_iterations") {
        o.relax_iterations = std::stoi(value);
    } else if (key == "workers") {
        o.workers = std::stoi(value);
    } else if (key == "gravity_y") {
        o.gravity_y = std::stof(value);
    } else if (key == "restitution") {
        o.restitution = std::stof(value);
    } else if (key == "friction") {
        o.friction = std::stof(value);
    } else if (key == "contact_hertz") {
        o.contact_hertz = std::stof(value);
    } else if (key == "contact_damping_ratio") {
        o.contact_damping_ratio = std::stof(value);
    } else {
        throw std::invalid_argument("unknown option " + key);
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::cerr << "usage: simdcollide_world_twin IN OUT STEPS DT [option=value ...]\n";
        return 2;
    }
    try {
        simdcollide::world_options options;
        for (int a = 5; a < argc; ++a) {
            const std::string arg = argv[a];
            const auto eq = arg.find('=');
            if (eq == std::string::npos) {
                throw std::invalid_argument("not option=value: " + arg);
            }
            set_option(options, arg.substr(0, eq), arg.substr(eq + 1));
        }
        std::ifstream in(argv[1], std::ios::binary);
        std::uint64_t n = 0;
        std::uint64_t b = 0;
        std::uint64_t d = 0;
        in.read(reinterpret_cast<char*>(&n), sizeof n);
        in.read(reinterpret_cast<char*>(&b), sizeof b);
        in.read(reinterpret_cast<char*>(&d), sizeof d);
        const auto x = read_floats(in, n), y = read_floats(in, n), r = read_floats(in, n);
        const auto im = read_floats(in, n), vx = read_floats(in, n), vy = read_floats(in, n);
        const auto x0 = read_floats(in, b), y0 = read_floats(in, b);
        const auto x1 = read_floats(in, b), y1 = read_floats(in, b);
        const auto dx0 = read_floats(in, d), dy0 = read_floats(in, d);
        const auto dx1 = read_floats(in, d), dy1 = read_floats(in, d);
        const auto dim = read_floats(in, d), dvx = read_floats(in, d), dvy = read_floats(in, d);
        if (!in) {
            throw std::runtime_error(std::string("cannot read ") + argv[1]);
        }
        simdcollide::particle_world world(options);
        world.add_circles({x.data(), y.data(), r.data(), n}, im, vx, vy);
        world.set_boxes({x0.data(), y0.data(), x1.data(), y1.data(), b});
        for (std::uint64_t k = 0; k < d; ++k) {
            world.add_dynamic_box(simdcollide::aabb::from_min_max(dx0[k], dy0[k], dx1[k], dy1[k]),
                                  dim[k], dvx[k], dvy[k]);
        }
        const long steps = std::stol(argv[3]);
        const float dt = std::stof(argv[4]);
        for (long s = 0; s < steps; ++s) {
            world.step(dt);
        }
        const simdcollide::particles_view p = world.particles();
        std::ofstream out(argv[2], std::ios::binary);
        for (const float* field : {p.x, p.y, p.vx, p.vy}) {
            out.write(reinterpret_cast<const char*>(field),
                      static_cast<std::streamsize>(n * sizeof(float)));
        }
        const simdcollide::dynamic_boxes_view boxes = world.dynamic_boxes();
        for (const float* field : {boxes.x, boxes.y, boxes.vx, boxes.vy}) {
            out.write(reinterpret_cast<const char*>(field),
                      static_cast<std::streamsize>(d * sizeof(float)));
        }
        return out ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "simdcollide_world_twin: " << e.what() << "\n";
        return 1;
    }
}
