// Differential fuzzing: every kernel of every instruction set this CPU runs against the
// scalar reference, on inputs libFuzzer makes up (raw float bits, so NaN, infinities,
// subnormals, -0 and huge values all come up, mixed with small dyadic values, so that exact
// touching, coincident centres and centres on faces come up too).
//
// docs/behaviour.md "Exactness": results bit-identical to the reference; where invalid input makes
// a NaN, its payload may differ, nothing else. So every output (and every count) is compared bit
// for bit, NaN against NaN excepted. A mismatch, or a write outside an output's elements, aborts
// with what differed.
//
// Build (clang): cmake -DCMAKE_CXX_COMPILER=clang++ -DSIMDCOLLIDE_BUILD_FUZZERS=ON ...
// Run: simdcollide_fuzz_kernels -max_total_time=60 (docs/testing.md, "Fuzzing").
#include "broad_phase/separate_in_order.hpp"
#include "fuzz_reader.hpp"
#include "pairwise/kernel_table.hpp"
#include "pairwise/pair_list.hpp"

#include <simdcollide/simdcollide.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace simdcollide::fuzz {
namespace {

// What docs/behaviour.md allows to differ: a NaN's payload.
bool same(float a, float b) {
    return canonical_bits(a) == canonical_bits(b);
}

[[noreturn]] void mismatch(std::string_view isa, const std::string& what) {
    std::fprintf(stderr, "simdcollide fuzz: %.*s differs from the reference: %s\n",
                 static_cast<int>(isa.size()), isa.data(), what.c_str());
    std::abort();
}

// One array of floats for a view, `shift` elements past an allocation of exactly
// shift + n (so AddressSanitizer sees a write past the end), the shift filled with a
// sentinel that must survive (a write before the start).
class field {
public:
    static constexpr float sentinel = -12345.678F;

    field(std::size_t n, std::size_t shift) : storage_(shift + n, sentinel), shift_(shift) {}
    float* data() { return storage_.data() + shift_; }
    const float* data() const { return storage_.data() + shift_; }
    std::size_t size() const { return storage_.size() - shift_; }
    bool guard_intact() const {
        for (std::size_t i = 0; i < shift_; ++i) {
            if (std::bit_cast<std::uint32_t>(storage_[i]) !=
                std::bit_cast<std::uint32_t>(sentinel)) {
                return false;
            }
        }
        return true;
    }

private:
    std::vector<float> storage_;
    std::size_t shift_;
};

// Every array a kernel reads or writes: circles a and b (or one set for pair lists), boxes,
// contacts, and per-element outputs. All of one length n and one misalignment.
struct scene {
    enum : std::size_t {
        ax,
        ay,
        ar,
        aw,
        avx,
        avy, // circle a (or the pair lists' circles)
        bx,
        by,
        br,
        bw,
        bvx,
        bvy, // circle b
        min_x,
        min_y,
        max_x,
        max_y,
        normal_x,
        normal_y,
        depth,
        point_x,
        point_y, // contacts, in or out
        out0,
        out1, // closest point, distance squared
        count_of_fields
    };

    scene(std::size_t n, std::size_t shift) : n(n), mask(n + 1, 0xA5) {
        f.reserve(count_of_fields);
        for (std::size_t k = 0; k < count_of_fields; ++k) {
            f.emplace_back(n, shift);
        }
    }

    float* p(std::size_t k) { return f[k].data(); }
    circles_cview a_circles() { return {p(ax), p(ay), p(ar), n}; }
    circles_cview b_circles() { return {p(bx), p(by), p(br), n}; }
    particles_view a_particles() { return {p(ax), p(ay), p(ar), p(aw), p(avx), p(avy), n}; }
    particles_view b_particles() { return {p(bx), p(by), p(br), p(bw), p(bvx), p(bvy), n}; }
    aabbs_view boxes() { return {p(min_x), p(min_y), p(max_x), p(max_y), n}; }
    contacts_view contacts() {
        return {p(normal_x), p(normal_y), p(depth), p(point_x), p(point_y), n};
    }
    contacts_cview contacts_in() {
        return {p(normal_x), p(normal_y), p(depth), p(point_x), p(point_y), n};
    }

    std::size_t n;
    std::vector<field> f;
    std::vector<std::uint8_t> mask; // n flags and one guard byte
};

// The fuzzer's input, decoded once and replayed for each kernel on each table.
struct input {
    std::size_t n = 0;
    std::size_t shift = 0;
    std::vector<float> values; // scene::count_of_fields * n: field k's element i at k * n + i
    std::vector<circle_pair> pairs;
    std::vector<circle_pair> distinct_pairs; // a != b: what pair-list separation requires
    float margin = 0.0F;
    aabb box{};
    response_parameters response{};
};

input decode(const std::uint8_t* data, std::size_t size) {
    reader r(data, size);
    input in;
    in.n = r.byte() % 41U; // up to five AVX-512 blocks, with every tail length below
    in.shift = r.byte() % 16U;
    in.margin = r.value();
    // Braces, not a call: a braced list reads its values left to right, and a call's
    // arguments in an unspecified order (GCC and clang differ), which would make the saved
    // corpus mean other inputs to another compiler.
    in.box = aabb{r.value(), r.value(), r.value(), r.value()};
    in.response = {r.value(), r.value()};
    const std::size_t pair_count = in.n == 0 ? 0 : r.byte() % 64U;
    for (std::size_t k = 0; k < pair_count; ++k) {
        const auto a = static_cast<std::uint32_t>(r.byte() % in.n);
        const auto b = static_cast<std::uint32_t>(r.byte() % in.n);
        in.pairs.push_back({a, b});
        if (a != b) {
            in.distinct_pairs.push_back({a, b});
        }
    }
    // Element by element, so that the first elements of every field come from the input's
    // first bytes after the header.
    in.values.resize(scene::count_of_fields * in.n);
    for (std::size_t i = 0; i < in.n; ++i) {
        for (std::size_t k = 0; k < scene::count_of_fields; ++k) {
            in.values[k * in.n + i] = r.value();
        }
    }
    return in;
}

scene scene_of(const input& in) {
    scene s(in.n, in.shift);
    for (std::size_t k = 0; k < scene::count_of_fields; ++k) {
        std::copy_n(in.values.begin() + static_cast<std::ptrdiff_t>(k * in.n), in.n, s.p(k));
    }
    return s;
}

// Compares every field, the mask and the guards of two scenes after the same kernel.
void compare(std::string_view isa, const char* kernel, scene& want, scene& got) {
    for (std::size_t k = 0; k < scene::count_of_fields; ++k) {
        if (!got.f[k].guard_intact()) {
            mismatch(isa, std::string(kernel) + " wrote before field " + std::to_string(k));
        }
        for (std::size_t i = 0; i < want.n; ++i) {
            if (!same(want.p(k)[i], got.p(k)[i])) {
                char buffer[160];
                std::snprintf(buffer, sizeof buffer, "%s: field %zu element %zu: %a against %a",
                              kernel, k, i, static_cast<double>(got.p(k)[i]),
                              static_cast<double>(want.p(k)[i]));
                mismatch(isa, buffer);
            }
        }
    }
    if (want.mask != got.mask) {
        mismatch(isa, std::string(kernel) + ": overlap mask (or its guard byte)");
    }
}

void compare_count(std::string_view isa, const char* kernel, std::size_t want, std::size_t got) {
    if (want != got) {
        mismatch(isa, std::string(kernel) + ": returned " + std::to_string(got) + ", not " +
                          std::to_string(want));
    }
}

// Runs `kernel(table, scene)` on a fresh scene with the reference and with `t`, and compares
// the scenes and what the calls returned.
template <class Kernel>
void check(const input& in, const detail::kernel_table& t, const char* name, Kernel kernel) {
    scene want = scene_of(in);
    scene got = scene_of(in);
    const std::size_t want_count = kernel(detail::reference_table(), want);
    const std::size_t got_count = kernel(t, got);
    compare(isa_name(t.id), name, want, got);
    compare_count(isa_name(t.id), name, want_count, got_count);
}

void check_circle_aabb(const input& in, const detail::kernel_table& t) {
    check(in, t, "circle_aabb closest_point", [](const detail::kernel_table& k, scene& s) {
        k.circle_aabb.closest_point(s.a_circles(), s.boxes(),
                                    {s.p(scene::out0), s.p(scene::out1), s.n});
        return std::size_t{0};
    });
    check(in, t, "circle_aabb distance_squared", [](const detail::kernel_table& k, scene& s) {
        k.circle_aabb.distance_squared(s.a_circles(), s.boxes(), s.p(scene::out0));
        return std::size_t{0};
    });
    check(in, t, "circle_aabb overlap", [&](const detail::kernel_table& k, scene& s) {
        return k.circle_aabb.overlap(s.a_circles(), s.boxes(), s.mask.data(), in.margin);
    });
    check(in, t, "circle_aabb overlap count", [&](const detail::kernel_table& k, scene& s) {
        return k.circle_aabb.overlap(s.a_circles(), s.boxes(), nullptr, in.margin);
    });
    check(in, t, "circle_aabb contact", [&](const detail::kernel_table& k, scene& s) {
        return k.circle_aabb.contact(s.a_circles(), s.boxes(), s.contacts(), in.margin);
    });
    check(in, t, "circle_aabb push_out", [&](const detail::kernel_table& k, scene& s) {
        return k.circle_aabb.push_out({s.p(scene::ax), s.p(scene::ay), s.p(scene::ar), s.n},
                                      s.boxes(), in.margin);
    });
    check(in, t, "circle_aabb closest_point_box", [&](const detail::kernel_table& k, scene& s) {
        k.circle_aabb.closest_point_box(s.a_circles(), in.box,
                                        {s.p(scene::out0), s.p(scene::out1), s.n});
        return std::size_t{0};
    });
    check(in, t, "circle_aabb distance_squared_box", [&](const detail::kernel_table& k, scene& s) {
        k.circle_aabb.distance_squared_box(s.a_circles(), in.box, s.p(scene::out0));
        return std::size_t{0};
    });
    check(in, t, "circle_aabb overlap_box", [&](const detail::kernel_table& k, scene& s) {
        return k.circle_aabb.overlap_box(s.a_circles(), in.box, s.mask.data(), in.margin);
    });
    check(in, t, "circle_aabb contact_box", [&](const detail::kernel_table& k, scene& s) {
        return k.circle_aabb.contact_box(s.a_circles(), in.box, s.contacts(), in.margin);
    });
    check(in, t, "circle_aabb push_out_box", [&](const detail::kernel_table& k, scene& s) {
        return k.circle_aabb.push_out_box({s.p(scene::ax), s.p(scene::ay), s.p(scene::ar), s.n},
                                          in.box, in.margin);
    });
}

// The swept kernels: circles a moving by their velocities (as displacements) against the
// boxes, the one box and circles b; impacts into out0 (time) and the contact normals.
// Box against box: the scene's boxes first, and as the second boxes made of circle fields
// (a's centre as the min corner, b's as the max: valid, inverted, touching or not).
void check_box_box(const input& in, const detail::kernel_table& t) {
    const auto second = [](scene& s) {
        return aabbs_view{s.p(scene::ax), s.p(scene::ay), s.p(scene::bx), s.p(scene::by), s.n};
    };
    check(in, t, "box_box overlap", [&](const detail::kernel_table& k, scene& s) {
        return k.box_box.overlap(s.boxes(), second(s), s.mask.data(), in.margin);
    });
    check(in, t, "box_box count_overlaps", [&](const detail::kernel_table& k, scene& s) {
        return k.box_box.overlap(s.boxes(), second(s), nullptr, in.margin);
    });
    check(in, t, "box_box contact", [&](const detail::kernel_table& k, scene& s) {
        return k.box_box.contact(s.boxes(), second(s), s.contacts(), in.margin);
    });
    check(in, t, "box_box overlap one box", [&](const detail::kernel_table& k, scene& s) {
        return k.box_box.overlap_box(s.boxes(), in.box, s.mask.data(), in.margin);
    });
    check(in, t, "box_box contact one box", [&](const detail::kernel_table& k, scene& s) {
        return k.box_box.contact_box(s.boxes(), in.box, s.contacts(), in.margin);
    });
    // Separation: the scene's boxes weighted by a's inverse masses, the second boxes by b's
    // radii (fields neither box uses).
    const auto first_bodies = [](scene& s) {
        return box_bodies_view{s.p(scene::min_x), s.p(scene::min_y), s.p(scene::max_x),
                               s.p(scene::max_y), s.p(scene::aw),    s.n};
    };
    const auto second_bodies = [](scene& s) {
        return box_bodies_view{s.p(scene::ax), s.p(scene::ay), s.p(scene::bx),
                               s.p(scene::by), s.p(scene::br), s.n};
    };
    for (const separation_weighting mode :
         {separation_weighting::inverse_mass, separation_weighting::equal,
          separation_weighting::by_radius}) {
        check(in, t, "box_box separate", [&](const detail::kernel_table& k, scene& s) {
            return k.box_box.separate(first_bodies(s), second_bodies(s), mode);
        });
    }
    check(in, t, "box_box separate one box", [&](const detail::kernel_table& k, scene& s) {
        return k.box_box.separate_box(first_bodies(s), in.box);
    });
}

void check_swept(const input& in, const detail::kernel_table& t) {
    const auto moves = [](scene& s) {
        return displacements_cview{s.p(scene::avx), s.p(scene::avy), s.n};
    };
    const auto impacts = [](scene& s) {
        return impacts_view{s.p(scene::out0), s.p(scene::normal_x), s.p(scene::normal_y), s.n};
    };
    check(in, t, "swept box", [&](const detail::kernel_table& k, scene& s) {
        return k.swept.box(s.a_circles(), moves(s), s.boxes(), impacts(s));
    });
    check(in, t, "swept one_box", [&](const detail::kernel_table& k, scene& s) {
        return k.swept.one_box(s.a_circles(), moves(s), in.box, impacts(s));
    });
    check(in, t, "swept circle", [&](const detail::kernel_table& k, scene& s) {
        return k.swept.circle(s.a_circles(), moves(s), s.b_circles(), impacts(s));
    });
}

void check_circle_circle(const input& in, const detail::kernel_table& t) {
    check(in, t, "circle_circle distance_squared", [](const detail::kernel_table& k, scene& s) {
        k.circle_circle.distance_squared(s.a_circles(), s.b_circles(), s.p(scene::out0));
        return std::size_t{0};
    });
    check(in, t, "circle_circle overlap", [](const detail::kernel_table& k, scene& s) {
        return k.circle_circle.overlap(s.a_circles(), s.b_circles(), s.mask.data());
    });
    check(in, t, "circle_circle contact", [](const detail::kernel_table& k, scene& s) {
        return k.circle_circle.contact(s.a_circles(), s.b_circles(), s.contacts());
    });
    for (const separation_weighting mode :
         {separation_weighting::inverse_mass, separation_weighting::equal,
          separation_weighting::by_radius}) {
        check(in, t, "circle_circle separate", [&](const detail::kernel_table& k, scene& s) {
            return k.circle_circle.separate(s.a_particles(), s.b_particles(), mode);
        });
        check(in, t, "pair-list separate", [&](const detail::kernel_table& k, scene& s) {
            separation_workspace workspace;
            return detail::separate_unchecked(k, s.a_particles(), in.distinct_pairs, mode,
                                              workspace);
        });
        // Separation in order: the same pairs grouped (the same groups for every ISA), two
        // rounds.
        check(in, t, "separate_in_order", [&](const detail::kernel_table& k, scene& s) {
            pair_grouper grouper;
            separation_workspace workspace;
            detail::separate_in_order_unchecked(
                k, s.a_particles(), grouper.group(in.distinct_pairs, s.n), mode, 2, workspace);
            return in.distinct_pairs.size();
        });
    }
    check(in, t, "pair-list contact", [&](const detail::kernel_table& k, scene& s) {
        // The pair list's contacts go to the per-element outputs: as many as there are pairs.
        std::vector<field> out;
        for (int j = 0; j < 5; ++j) {
            out.emplace_back(in.pairs.size(), in.shift);
        }
        separation_workspace workspace;
        const std::size_t hits =
            detail::contact_unchecked(k, s.a_circles(), in.pairs,
                                      {out[0].data(), out[1].data(), out[2].data(), out[3].data(),
                                       out[4].data(), in.pairs.size()},
                                      workspace);
        // Folded into the scene so that compare() sees them: element i of field out0
        // becomes the bits of pair i's fields, summed as integers (any difference shows).
        for (std::size_t i = 0; i < s.n; ++i) {
            std::uint32_t sum = 0;
            for (std::size_t q = i; q < in.pairs.size(); q += s.n) {
                for (field& o : out) {
                    const float v = o.data()[q];
                    sum = sum * 31U + canonical_bits(v);
                }
            }
            s.p(scene::out0)[i] = std::bit_cast<float>(sum & 0x3FFFFFFFU); // never a NaN
        }
        for (field& o : out) {
            if (!o.guard_intact()) {
                mismatch(isa_name(k.id), "pair-list contact wrote before its output");
            }
        }
        return hits;
    });
}

void check_response_and_world(const input& in, const detail::kernel_table& t) {
    check(in, t, "response circle_aabb", [&](const detail::kernel_table& k, scene& s) {
        return k.response.circle_aabb(s.a_particles(), s.contacts_in(), in.response);
    });
    check(in, t, "response circle_circle", [&](const detail::kernel_table& k, scene& s) {
        return k.response.circle_circle(s.a_particles(), s.b_particles(), s.contacts_in(),
                                        in.response);
    });
    // The world's look for fast circles: the largest squared speed, its bits as the count.
    check(in, t, "world fastest", [](const detail::kernel_table& k, scene& s) {
        return std::size_t{std::bit_cast<std::uint32_t>(k.world.fastest(s.a_particles()))};
    });
}

} // namespace
} // namespace simdcollide::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace simdcollide;
    const fuzz::input in = fuzz::decode(data, size);
    for (const isa which : compiled_isas()) {
        if (which == isa::reference || !isa_supported(which)) {
            continue;
        }
        const detail::kernel_table& t = *detail::compiled_table(which);
        fuzz::check_circle_aabb(in, t);
        fuzz::check_box_box(in, t);
        fuzz::check_circle_circle(in, t);
        fuzz::check_swept(in, t);
        fuzz::check_response_and_world(in, t);
    }
    return 0;
}
