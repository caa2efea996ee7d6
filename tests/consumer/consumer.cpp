// Uses only the installed public headers: proves they need neither xsimd nor kernels/.
#include <simdcollide/simdcollide.hpp>

#include <cstdio>

int main() {
    simdcollide::circle_set circles;
    circles.push_back({0.5F, 1.0F, 0.25F});
    simdcollide::aabb_set boxes;
    boxes.push_back(simdcollide::aabb::from_origin_size(0, 0, 2, 2));
    const std::size_t moved = simdcollide::push_out(circles.view(), boxes.view());
    std::printf("moved %zu on %s: x=%g\n", moved,
                std::string(simdcollide::isa_name(simdcollide::active_isa())).c_str(),
                circles.x[0]);
    // The nearest face is min_x, 0.5 away: the centre ends at -0.25.
    return moved == 1 && circles.x[0] == -0.25F ? 0 : 1;
}
