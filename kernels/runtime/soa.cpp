// Span constructors of the views: the one place field lengths are compared.
#include <simdcollide/soa.hpp>

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

namespace simdcollide {
namespace {

// `fields` are (name, length) pairs; all lengths must equal the first.
std::size_t common_length(const char* view,
                          std::initializer_list<std::pair<const char*, std::size_t>> fields) {
    const auto& first = *fields.begin();
    for (const auto& [name, length] : fields) {
        if (length != first.second) {
            throw std::invalid_argument(std::string("simdcollide::") + view + ": " + name +
                                        " has " + std::to_string(length) + " elements but " +
                                        first.first + " has " + std::to_string(first.second));
        }
    }
    return first.second;
}

} // namespace

circles_cview::circles_cview(std::span<const float> x_, std::span<const float> y_,
                             std::span<const float> radius_)
    : x(x_.data()), y(y_.data()), radius(radius_.data()),
      count(common_length("circles_cview",
                          {{"x", x_.size()}, {"y", y_.size()}, {"radius", radius_.size()}})) {}

circles_view::circles_view(std::span<float> x_, std::span<float> y_, std::span<const float> radius_)
    : x(x_.data()), y(y_.data()), radius(radius_.data()),
      count(common_length("circles_view",
                          {{"x", x_.size()}, {"y", y_.size()}, {"radius", radius_.size()}})) {}

aabbs_view::aabbs_view(std::span<const float> min_x_, std::span<const float> min_y_,
                       std::span<const float> max_x_, std::span<const float> max_y_)
    : min_x(min_x_.data()), min_y(min_y_.data()), max_x(max_x_.data()), max_y(max_y_.data()),
      count(common_length("aabbs_view", {{"min_x", min_x_.size()},
                                         {"min_y", min_y_.size()},
                                         {"max_x", max_x_.size()},
                                         {"max_y", max_y_.size()}})) {}

box_bodies_view::box_bodies_view(std::span<float> min_x_, std::span<float> min_y_,
                                 std::span<float> max_x_, std::span<float> max_y_,
                                 std::span<const float> inverse_mass_)
    : min_x(min_x_.data()), min_y(min_y_.data()), max_x(max_x_.data()), max_y(max_y_.data()),
      inverse_mass(inverse_mass_.data()),
      count(common_length("box_bodies_view", {{"min_x", min_x_.size()},
                                              {"min_y", min_y_.size()},
                                              {"max_x", max_x_.size()},
                                              {"max_y", max_y_.size()},
                                              {"inverse_mass", inverse_mass_.size()}})) {}

points_view::points_view(std::span<float> x_, std::span<float> y_)
    : x(x_.data()), y(y_.data()),
      count(common_length("points_view", {{"x", x_.size()}, {"y", y_.size()}})) {}

displacements_cview::displacements_cview(std::span<const float> dx_, std::span<const float> dy_)
    : dx(dx_.data()), dy(dy_.data()),
      count(common_length("displacements_cview", {{"dx", dx_.size()}, {"dy", dy_.size()}})) {}

impacts_view::impacts_view(std::span<float> time_, std::span<float> normal_x_,
                           std::span<float> normal_y_)
    : time(time_.data()), normal_x(normal_x_.data()), normal_y(normal_y_.data()),
      count(common_length("impacts_view", {{"time", time_.size()},
                                           {"normal_x", normal_x_.size()},
                                           {"normal_y", normal_y_.size()}})) {}

rays_cview::rays_cview(std::span<const float> x_, std::span<const float> y_,
                       std::span<const float> dx_, std::span<const float> dy_)
    : x(x_.data()), y(y_.data()), dx(dx_.data()), dy(dy_.data()),
      count(common_length(
          "rays_cview",
          {{"x", x_.size()}, {"y", y_.size()}, {"dx", dx_.size()}, {"dy", dy_.size()}})) {}

ray_hits_view::ray_hits_view(const fields& f)
    : fraction(f.fraction.data()), point_x(f.point_x.data()), point_y(f.point_y.data()),
      normal_x(f.normal_x.data()), normal_y(f.normal_y.data()), shape(f.shape.data()),
      count(common_length("ray_hits_view", {{"fraction", f.fraction.size()},
                                            {"point_x", f.point_x.size()},
                                            {"point_y", f.point_y.size()},
                                            {"normal_x", f.normal_x.size()},
                                            {"normal_y", f.normal_y.size()},
                                            {"shape", f.shape.size()}})) {}

contacts_view::contacts_view(std::span<float> normal_x_, std::span<float> normal_y_,
                             std::span<float> depth_, std::span<float> point_x_,
                             std::span<float> point_y_)
    : normal_x(normal_x_.data()), normal_y(normal_y_.data()), depth(depth_.data()),
      point_x(point_x_.data()), point_y(point_y_.data()),
      count(common_length("contacts_view", {{"normal_x", normal_x_.size()},
                                            {"normal_y", normal_y_.size()},
                                            {"depth", depth_.size()},
                                            {"point_x", point_x_.size()},
                                            {"point_y", point_y_.size()}})) {}

particles_view::particles_view(std::span<float> x_, std::span<float> y_,
                               std::span<const float> radius_, std::span<const float> inverse_mass_,
                               std::span<float> vx_, std::span<float> vy_)
    : x(x_.data()), y(y_.data()), radius(radius_.data()), inverse_mass(inverse_mass_.data()),
      vx(vx_.data()), vy(vy_.data()),
      count(common_length("particles_view", {{"x", x_.size()},
                                             {"y", y_.size()},
                                             {"radius", radius_.size()},
                                             {"inverse_mass", inverse_mass_.size()},
                                             {"vx", vx_.size()},
                                             {"vy", vy_.size()}})) {}

} // namespace simdcollide
