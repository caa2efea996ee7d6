// The bulk of a set of positions (bulk_extent.hpp).
#include "broad_phase/bulk_extent.hpp"

#include <algorithm>
#include <cstddef>

namespace simdcollide::detail {
namespace {

// [lo, hi] of one axis: the quantiles at `skip` from each end, widened by their distance.
void bulk_range(std::vector<float>& v, std::size_t skip, double& lo, double& hi) {
    const auto at = [&](std::size_t k) {
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
        return static_cast<double>(v[k]);
    };
    const double low = at(skip);
    const double high = at(v.size() - 1 - skip);
    const double width = high - low;
    lo = std::max(lo, low - width);
    hi = std::min(hi, high + width);
}

} // namespace

extent bulk_extent(std::vector<float>& xs, std::vector<float>& ys, const extent& whole) {
    constexpr std::size_t fewest = 64;
    extent bulk = whole;
    if (xs.size() < fewest || ys.size() != xs.size()) {
        return bulk;
    }
    const std::size_t skip = xs.size() / fewest;
    bulk_range(xs, skip, bulk.lo_x, bulk.hi_x);
    bulk_range(ys, skip, bulk.lo_y, bulk.hi_y);
    return bulk;
}

} // namespace simdcollide::detail
