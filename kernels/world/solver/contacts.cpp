// Sizing the soft step's contact arrays (contacts.hpp).
#include "world/solver/contacts.hpp"

namespace simdcollide::detail {

void pair_contacts::resize(std::size_t count) {
    a.resize(count);
    b.resize(count);
    for (aligned_floats* f :
         {&normal_x, &normal_y, &base, &wa, &wb, &approach, &normal, &tangent, &max_normal}) {
        f->resize(count);
    }
}

void box_contacts::resize(std::size_t count) {
    circle.resize(count);
    box.resize(count);
    for (aligned_floats* f : {&normal_x, &normal_y, &base, &box_normal, &box_tangent, &approach,
                              &normal, &tangent, &max_normal}) {
        f->resize(count);
    }
}

} // namespace simdcollide::detail
