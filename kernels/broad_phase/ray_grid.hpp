// A grid of circles for ray casts (docs/world-design.md, "Queries"): built over the circles
// as they are, then each ray walks the cells along its path and tests only their circles,
// with the result of testing every circle (the earliest hit, the lowest index on a tie).
#pragma once

#include "pairwise/kernel_table.hpp"
#include "runtime/tasks.hpp"

#include <simdcollide/soa.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide::detail {

/// Cells [first, last] of a circle_ray_grid, in the order of their index (row by row), whose
/// circles a ray has been tested against already (none when first > last).
struct tested_cells {
    std::size_t first = 1;
    std::size_t last = 0;
};

class circle_ray_grid {
public:
    /// Sorts `circles` into cells of about eight circles each over the bulk of them; a circle
    /// wider than a cell, outside the bulk or not finite goes to a list every ray tests.
    explicit circle_ray_grid(circles_cview circles);

    /// Every ray against every circle, each ray's hit into `hits` as cast_rays (queries.hpp)
    /// writes it, on `run`'s workers. The rays are taken in the order of the cells they start
    /// in, in packets of neighbours that first test their cells' circles together, through
    /// `t`'s rays_circle_run, and then walk on one by one.
    void cast_all(const kernel_table& t, rays_cview rays, ray_hits_view hits,
                  const task_runner& run) const;

    /// The ray from (ox, oy) by (dx, dy) against every circle, through `t`'s run kernels:
    /// `best` as ray_circle_run over all of them in one run would leave it, where `best`
    /// holds the ray's first hit among the `tested` cells' circles (or none).
    void cast(const kernel_table& t, float ox, float oy, float dx, float dy, ray_best& best,
              tested_cells tested = {}) const;

private:
    // Whether a circle fits the cells: finite, radius >= 0, its centre within the bulk.
    [[nodiscard]] bool in_bulk(float x, float y, float r) const noexcept {
        return std::isfinite(x) && std::isfinite(y) && std::isfinite(r) && r >= 0.0F &&
               x >= bulk_[0] && x <= bulk_[1] && y >= bulk_[2] && y <= bulk_[3];
    }
    // The column (or row) of coordinate v on an axis of `count` cells from `origin`, the
    // nearest one for v outside them. By a multiplication rather than a division: the
    // difference is an ulp or so of a double, far within the pad.
    [[nodiscard]] std::int64_t cell_at(double v, double origin, std::int64_t count) const noexcept {
        double q = (v - origin) * inverse_cell_;
        if (!(q > 0.0)) {
            q = 0.0; // (a NaN too: its cell does not matter, the walk finds no t in it)
        }
        const auto last = static_cast<double>(count - 1);
        return static_cast<std::int64_t>(q < last ? q : last); // q >= 0: truncation is floor
    }
    // The cells' walk along the segment, within the grid.
    void walk(const kernel_table& t, float ox, float oy, float dx, float dy, ray_best& best,
              tested_cells tested) const;

    circles_cview all_; // every circle, for the rays too long or far for the walk's bound
    std::vector<std::uint32_t> all_index_;
    double origin_x_ = 0.0;
    double origin_y_ = 0.0;
    double cell_ = 1.0;
    double inverse_cell_ = 1.0;
    std::int64_t columns_ = 0; // 0: no circle in cells
    std::int64_t rows_ = 0;
    double bulk_[4] = {0.0, 0.0, 0.0, 0.0}; // min x, max x, min y, max y of the centres in cells
    double reach_ = 0.0; // rays whose extent (see cast) is beyond this test every circle
    std::vector<std::uint32_t> cell_start_;
    std::vector<float> x_, y_, radius_; // each cell's circles, cell after cell
    std::vector<std::uint32_t> index_;
    std::vector<float> other_x_, other_y_, other_radius_; // wider than a cell, or not finite
    std::vector<std::uint32_t> other_index_;
};

/// Hit i of `to` from hit k of `from`.
inline void copy_ray_hit(const ray_hits_view& from, std::size_t k, const ray_hits_view& to,
                         std::size_t i) {
    to.fraction[i] = from.fraction[k];
    to.point_x[i] = from.point_x[k];
    to.point_y[i] = from.point_y[k];
    to.normal_x[i] = from.normal_x[k];
    to.normal_y[i] = from.normal_y[k];
    to.shape[i] = from.shape[k];
}

/// Hit i of `hits` from ray i's best among circles: the point, the normal and the shape, as
/// cast_rays (queries.hpp) writes them.
void write_ray_hit(rays_cview rays, std::size_t i, const ray_best& best, ray_hits_view hits);

} // namespace simdcollide::detail
