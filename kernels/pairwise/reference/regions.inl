// The scalar reference for region and point queries: docs/behaviour.md "Region and point
// queries", one mask byte a shape (1: reached). Included in a namespace after circle_aabb.inl,
// whose distance it uses; needs <cstddef>, <cstdint> and <simdcollide/soa.hpp>.

inline std::size_t circles_in_region_loop(simdcollide::circles_cview c, simdcollide::aabb region,
                                          std::uint8_t* mask) {
    std::size_t reached = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const float d2 = distance_squared_of(c.x[i], c.y[i], region.min_x, region.min_y,
                                             region.max_x, region.max_y);
        const bool in = d2 <= c.radius[i] * c.radius[i];
        mask[i] = in ? 1 : 0;
        reached += in ? 1 : 0;
    }
    return reached;
}

inline std::size_t circles_near_point_loop(simdcollide::circles_cview c, float px, float py,
                                           float distance, std::uint8_t* mask) {
    std::size_t reached = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const float dx = c.x[i] - px;
        const float dy = c.y[i] - py;
        const float reach = c.radius[i] + distance;
        const bool in = dx * dx + dy * dy <= reach * reach;
        mask[i] = in ? 1 : 0;
        reached += in ? 1 : 0;
    }
    return reached;
}

inline std::size_t boxes_in_region_loop(simdcollide::aabbs_view b, simdcollide::aabb region,
                                        std::uint8_t* mask) {
    std::size_t reached = 0;
    for (std::size_t i = 0; i < b.count; ++i) {
        const bool in = region.min_x <= b.max_x[i] && b.min_x[i] <= region.max_x &&
                        region.min_y <= b.max_y[i] && b.min_y[i] <= region.max_y;
        mask[i] = in ? 1 : 0;
        reached += in ? 1 : 0;
    }
    return reached;
}

inline std::size_t boxes_near_point_loop(simdcollide::aabbs_view b, float px, float py,
                                         float distance, std::uint8_t* mask) {
    std::size_t reached = 0;
    for (std::size_t i = 0; i < b.count; ++i) {
        const float d2 =
            distance_squared_of(px, py, b.min_x[i], b.min_y[i], b.max_x[i], b.max_y[i]);
        const bool in = d2 <= distance * distance;
        mask[i] = in ? 1 : 0;
        reached += in ? 1 : 0;
    }
    return reached;
}
