// Sizing the soft step's contact arrays and viewing them (contacts.hpp).
#include "world/solver/contacts.hpp"

namespace simdcollide::detail {

void pair_contacts::resize(std::size_t count) {
    a.resize(count);
    b.resize(count);
    for (aligned_floats* f : {&normal_x, &normal_y, &base, &wa, &wb, &approach, &friction,
                              &restitution, &normal, &tangent, &max_normal}) {
        f->resize(count);
    }
}

void box_contacts::resize(std::size_t count) {
    circle.resize(count);
    box.resize(count);
    for (aligned_floats* f : {&normal_x, &normal_y, &base, &box_normal, &box_tangent, &approach,
                              &friction, &restitution, &normal, &tangent, &max_normal}) {
        f->resize(count);
    }
}

pair_contacts_view pair_contacts::view() noexcept {
    return {a.data(),      b.data(),       normal_x.data(),   normal_y.data(), base.data(),
            wa.data(),     wb.data(),      approach.data(),   friction.data(), restitution.data(),
            normal.data(), tangent.data(), max_normal.data(), overflow_start()};
}

pair_prepare_view pair_contacts::prepare_view() noexcept {
    return {a.data(),      b.data(),       normal_x.data(),  normal_y.data(),
            base.data(),   wa.data(),      wb.data(),        approach.data(),
            normal.data(), tangent.data(), max_normal.data()};
}

box_contacts_view box_contacts::view() noexcept {
    return {circle.data(),      normal_x.data(),    normal_y.data(), base.data(),
            box_normal.data(),  box_tangent.data(), approach.data(), friction.data(),
            restitution.data(), normal.data(),      tangent.data(),  max_normal.data(),
            overflow_start()};
}

} // namespace simdcollide::detail
