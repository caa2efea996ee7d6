// The region a grid covers when a few objects lie far from the rest: the bulk of the
// objects, so that one far-away object cannot stretch the grid over the whole float range
// and put everything else into one cell. Shared by the grid of circle centres
// (circle_grid.cpp) and the static-box grid (static_boxes.cpp).
#pragma once

#include <vector>

namespace simdcollide::detail {

/// A rectangle in double precision (grids are sized in doubles).
struct extent {
    double lo_x = 0.0;
    double lo_y = 0.0;
    double hi_x = 0.0;
    double hi_y = 0.0;

    [[nodiscard]] double width() const { return hi_x - lo_x; }
    [[nodiscard]] double height() const { return hi_y - lo_y; }
};

/// The bulk of the points (xs[k], ys[k]), a sample of the objects' positions, within
/// `whole` (their bounding rectangle): on each axis, the range from the 1/64 to the 63/64
/// quantile of the sample, widened by that range's own width on both sides and clipped to
/// `whole`. A uniform spread gives `whole` back; a few points far away (fewer than 1/64 of
/// the sample on a side) are outside it. With fewer than 64 points, `whole`. Reorders the
/// vectors.
extent bulk_extent(std::vector<float>& xs, std::vector<float>& ys, const extent& whole);

} // namespace simdcollide::detail
