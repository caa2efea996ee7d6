// simdcollide-demo: steps a scene and draws it, frame by frame, as PNG files, and joins
// them into an animation where ImageMagick or ffmpeg is installed.
#include "demo/png.hpp"
#include "demo/render.hpp"
#include "scenes/scenes.hpp"

#include <simdcollide/simdcollide.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace simdcollide;

constexpr float dt = 1.0F / 60.0F;

// A scene: its world, and what it does before each step (a fountain adds circles).
struct demo_scene {
    std::unique_ptr<particle_world> world;
    std::size_t emitted = 0;
    std::size_t emit_total = 0;
    std::mt19937 rng{7};
};

// The pile: the benchmarks' circles dropped into a container with obstacles.
demo_scene pile(std::size_t n) {
    demo_scene s;
    s.world = std::move(scenes::make(scenes::kind::box, n).world);
    return s;
}

// A fountain: circles shot up from a nozzle in the middle of a container with two shelves,
// a few each step, until there are n.
demo_scene fountain(std::size_t n) {
    demo_scene s;
    s.world = std::make_unique<particle_world>();
    aabb_set boxes;
    scenes::add_container(40.0F, 30.0F, boxes);
    boxes.push_back(aabb::from_min_max(4.0F, 12.0F, 12.0F, 12.6F));
    boxes.push_back(aabb::from_min_max(28.0F, 16.0F, 36.0F, 16.6F));
    boxes.push_back(aabb::from_min_max(19.0F, 0.0F, 21.0F, 1.5F)); // the nozzle's base
    s.world->set_boxes(boxes.view());
    s.emit_total = n;
    return s;
}

void emit(demo_scene& s) {
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (int k = 0; k < 3 && s.emitted < s.emit_total; ++k, ++s.emitted) {
        const float angle = 0.35F * (unit(s.rng) - 0.5F) + (s.emitted % 2 == 0 ? 0.25F : -0.25F);
        const float speed = 17.0F + 3.0F * unit(s.rng);
        s.world->add_circle(
            {20.0F + 0.6F * (unit(s.rng) - 0.5F), 2.2F, 0.22F + 0.12F * unit(s.rng)}, 1.0F,
            speed * std::sin(angle), speed * std::cos(angle));
    }
}

// An hourglass: a funnel of stepped boxes over a lower chamber, its upper part full.
demo_scene hourglass(std::size_t n) {
    demo_scene s;
    s.world = std::make_unique<particle_world>();
    constexpr float width = 20.0F;
    aabb_set boxes;
    scenes::add_container(width, 44.0F, boxes);
    for (int j = 0; j < 10; ++j) {
        const float reach = 9.0F - 0.9F * static_cast<float>(j); // the neck is 2 wide
        const float y = 18.0F + static_cast<float>(j);
        boxes.push_back(aabb::from_min_max(0.0F, y, reach, y + 1.0F));
        boxes.push_back(aabb::from_min_max(width - reach, y, width, y + 1.0F));
    }
    s.world->set_boxes(boxes.view());
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const std::size_t per_row = 22;
    for (std::size_t i = 0; i < n; ++i) {
        s.world->add_circle({0.5F + 0.86F * static_cast<float>(i % per_row) + 0.05F * unit(s.rng),
                             28.5F + 0.86F * static_cast<float>(i / per_row),
                             0.3F + 0.1F * unit(s.rng)},
                            1.0F);
    }
    return s;
}

// Crates and circles: three towers of crates on the floor, more crates falling among them,
// and circles poured over it all from above.
demo_scene crates(std::size_t n) {
    demo_scene s;
    s.world = std::make_unique<particle_world>();
    constexpr float width = 30.0F;
    aabb_set boxes;
    scenes::add_container(width, 40.0F, boxes);
    s.world->set_boxes(boxes.view());
    for (const float x : {6.0F, 15.0F, 24.0F}) {
        for (int k = 0; k < 8; ++k) {
            const float y = 0.95F * static_cast<float>(k);
            s.world->add_dynamic_box(aabb::from_min_max(x - 0.6F, y, x + 0.6F, y + 0.9F), 0.5F);
        }
    }
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (int k = 0; k < 12; ++k) {
        const float x = 2.0F + 2.2F * static_cast<float>(k) + 0.4F * unit(s.rng);
        const float y = 12.0F + 1.5F * static_cast<float>(k % 3);
        s.world->add_dynamic_box(aabb::from_min_max(x - 0.5F, y, x + 0.5F, y + 0.8F), 0.5F);
    }
    const std::size_t per_row = 34;
    for (std::size_t i = 0; i < n; ++i) {
        s.world->add_circle({0.6F + 0.86F * static_cast<float>(i % per_row) + 0.05F * unit(s.rng),
                             17.0F + 0.86F * static_cast<float>(i / per_row),
                             0.25F + 0.1F * unit(s.rng)},
                            1.0F);
    }
    return s;
}

demo::window window_of(particle_world& world) {
    const aabbs_view b = world.boxes().boxes();
    demo::window v{b.min_x[0], b.min_y[0], b.max_x[0], b.max_y[0]};
    for (std::size_t i = 1; i < b.count; ++i) {
        v.left = std::min(v.left, b.min_x[i]);
        v.bottom = std::min(v.bottom, b.min_y[i]);
        v.right = std::max(v.right, b.max_x[i]);
        v.top = std::max(v.top, b.max_y[i]);
    }
    return {v.left - 0.5F, v.bottom - 0.5F, v.right + 0.5F, v.top + 0.5F};
}

// The shell's quoting of a path: in single quotes, each single quote closed, escaped and
// opened again.
std::string quoted(const std::string& path) {
    std::string out = "'";
    for (const char c : path) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

bool have(const char* program) {
    return std::system((std::string("command -v ") + program + " >/dev/null 2>&1").c_str()) == 0;
}

struct arguments {
    std::string scene = "fountain";
    std::string out = "demo";
    std::size_t frames = 120;
    std::size_t every = 2;
    std::size_t width = 800;
    std::size_t height = 600;
    std::size_t circles = 0; // 0: the scene's own count
};

const char* const usage =
    "simdcollide-demo: steps a scene and draws it as PNG frames (and an animation where\n"
    "ImageMagick or ffmpeg is installed)\n"
    "usage: simdcollide-demo [--scene pile|fountain|hourglass|crates] [--out DIR] [--frames N]\n"
    "                        [--every STEPS] [--width PIXELS] [--height PIXELS] [--circles N]\n"
    "Frame k shows the scene after k * STEPS steps of 1/60 s; DIR is made if missing.\n";

std::size_t count_from(const std::string& flag, const std::string& text, std::size_t least,
                       std::size_t most = 100000000) {
    std::size_t used = 0;
    unsigned long long value = 0;
    try {
        value = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || text[0] == '-' || value < least || value > most) {
        throw std::invalid_argument(flag + " takes a whole number from " + std::to_string(least) +
                                    " to " + std::to_string(most) + ", not \"" + text + "\"");
    }
    return static_cast<std::size_t>(value);
}

arguments parse(int argc, char** argv) {
    arguments a;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            std::fputs(usage, stdout);
            std::exit(0);
        }
        if (i + 1 >= argc) {
            throw std::invalid_argument("unknown option or missing value: " + flag);
        }
        const std::string value = argv[++i];
        if (flag == "--scene") {
            a.scene = value;
        } else if (flag == "--out") {
            a.out = value;
        } else if (flag == "--frames") {
            a.frames = count_from(flag, value, 1);
        } else if (flag == "--every") {
            a.every = count_from(flag, value, 1);
        } else if (flag == "--width") {
            a.width = count_from(flag, value, 16, 16384);
        } else if (flag == "--height") {
            a.height = count_from(flag, value, 16, 16384);
        } else if (flag == "--circles") {
            a.circles = count_from(flag, value, 1);
        } else {
            throw std::invalid_argument("unknown option: " + flag);
        }
    }
    return a;
}

demo_scene make_scene(const arguments& a) {
    if (a.scene == "pile") {
        return pile(a.circles != 0 ? a.circles : 3000);
    }
    if (a.scene == "fountain") {
        return fountain(a.circles != 0 ? a.circles : 2500);
    }
    if (a.scene == "hourglass") {
        return hourglass(a.circles != 0 ? a.circles : 900);
    }
    if (a.scene == "crates") {
        return crates(a.circles != 0 ? a.circles : 600);
    }
    throw std::invalid_argument("unknown scene \"" + a.scene +
                                "\" (the scenes: pile, fountain, hourglass, crates)");
}

// The frames joined into an animation by ImageMagick (a GIF) or else ffmpeg (an MP4),
// whichever is installed and works; otherwise the frames alone.
void animate(const arguments& a) {
    const std::string frames = quoted(a.out) + "/frame_*.png";
    const std::string animation = quoted(a.out + "/" + a.scene);
    std::fflush(stdout); // before the tools' own output
    if (have("convert") &&
        std::system(("convert -delay 3 -loop 0 " + frames + " " + animation + ".gif 2>/dev/null")
                        .c_str()) == 0) {
        std::printf("animation: %s/%s.gif\n", a.out.c_str(), a.scene.c_str());
        return;
    }
    if (have("ffmpeg") &&
        std::system(("ffmpeg -loglevel error -y -framerate 30 -pattern_type glob -i " + frames +
                     " -pix_fmt yuv420p " + animation + ".mp4")
                        .c_str()) == 0) {
        std::printf("animation: %s/%s.mp4\n", a.out.c_str(), a.scene.c_str());
        return;
    }
    std::printf("no animation: install ImageMagick or ffmpeg to join the frames\n");
}

int run(const arguments& a) {
    demo_scene s = make_scene(a);
    std::error_code error;
    std::filesystem::create_directories(a.out, error);
    if (error) {
        throw std::runtime_error("cannot make the folder " + a.out + ": " + error.message());
    }
    const demo::window view = window_of(*s.world);
    demo::image picture(a.width, a.height);
    char name[32];
    for (std::size_t frame = 0; frame < a.frames; ++frame) {
        if (frame > 0) {
            for (std::size_t k = 0; k < a.every; ++k) {
                emit(s);
                s.world->step(dt);
            }
        }
        demo::draw(*s.world, view, 15.0F, picture);
        std::snprintf(name, sizeof name, "frame_%04zu.png", frame);
        demo::write_png(picture, (std::filesystem::path(a.out) / name).string());
    }
    const std::size_t crate_count = s.world->dynamic_box_count();
    std::printf("%zu frames of %s (%zu circles%s) in %s/\n", a.frames, a.scene.c_str(),
                s.world->size(),
                crate_count == 0 ? "" : (", " + std::to_string(crate_count) + " crates").c_str(),
                a.out.c_str());
    if (a.frames > 1) {
        animate(a);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(parse(argc, argv));
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "simdcollide-demo: %s\n%s", e.what(), usage);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "simdcollide-demo: %s\n", e.what());
        return 1;
    }
}
