// The particle world's substeps in bands of circles (world.hpp "Bands", bands.hpp): the
// plan of the bands for the lists as they are, and the substeps run on it.
#include "world/world_state.hpp"

#include "pairwise/bands.hpp"
#include "pairwise/kernel_table.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace simdcollide {

// The bands of a substep (bands.hpp), for the lists as they are now: each band's groups,
// reach and box contacts, where its touches go, and the ring of per-circle entries. The touches go
// round a ring of a few bands' room (as many as can be in flight: a band's touches live from its
// separation until the last band its pairs reach is finished, and bands respond in order), so that
// at 1 000 000 circles they are read back from a core's cache; when that ring would need more room
// than the pairs (a few bands holding most of them), each band's touches go at its first pair's
// offset instead, which needs no more than one per pair.
void detail::world_state::plan_bands() {
    const std::size_t n = size();
    const std::size_t per_band = options_.circles_per_band;
    const std::size_t bands = (n + per_band - 1) / per_band;
    band_group_end_.assign(bands, 0);
    band_reach_.assign(bands, 0);
    band_touch_start_.assign(bands, 0);
    band_listed_end_.assign(bands, 0);
    const std::span<const circle_pair> pairs = grouper_.groups().pairs();
    const std::span<const std::uint32_t> ends = grouper_.groups().ends();
    // A group's first pair has its lowest first circle (list order within a chunk); its
    // reach is taken as its chunk's, which the grouper kept as it coloured. That is exact
    // where bands hold whole chunks, and else at least the group's own, which only fronts
    // bands and responds a little later (the same bits).
    for (const pair_grouper::chunk_record& chunk : grouper_.chunks()) {
        for (std::size_t g = chunk.ends_begin; g < chunk.ends_end; ++g) {
            const std::size_t begin = g == 0 ? 0 : ends[g - 1];
            if (ends[g] == begin) {
                continue;
            }
            const std::size_t band = pairs[begin].a / per_band;
            band_reach_[band] = std::max(band_reach_[band], chunk.reach);
            band_group_end_[band] = static_cast<std::uint32_t>(g + 1);
#ifndef NDEBUG
            // Debug builds (the sanitizer job's among them) hold the kept reach to the pairs.
            for (std::size_t k = begin; k < ends[g]; ++k) {
                if (pairs[k].b >= band_reach_[band]) {
                    throw std::logic_error("simdcollide::particle_world: a band's reach misses "
                                           "a pair's circle");
                }
            }
#endif
        }
    }
    std::size_t ring = 1;       // bands in flight at most
    std::size_t most_pairs = 0; // in one band
    std::size_t waits_for = 0;  // the band the one in hand responds after
    for (std::size_t band = 0; band < bands; ++band) {
        if (band > 0) {
            band_group_end_[band] = std::max(band_group_end_[band], band_group_end_[band - 1]);
        }
        const std::size_t end = std::min((band + 1) * per_band, n);
        band_reach_[band] = std::max(band_reach_[band], static_cast<std::uint32_t>(end));
        waits_for = std::max(waits_for, (band_reach_[band] - 1) / per_band);
        ring = std::max(ring, waits_for - band + 1);
        const std::size_t first_group = band == 0 ? 0 : band_group_end_[band - 1];
        const std::size_t first_pair = first_group == 0 ? 0 : ends[first_group - 1];
        const std::size_t last_group = band_group_end_[band];
        const std::size_t end_pair = last_group == 0 ? 0 : ends[last_group - 1];
        band_touch_start_[band] = static_cast<std::uint32_t>(first_pair);
        most_pairs = std::max(most_pairs, end_pair - first_pair);
        // The box contacts of the band's circles (the list is by circle).
        std::size_t listed = band == 0 ? 0 : band_listed_end_[band - 1];
        while (listed < box_contacts_.size() && box_contacts_[listed].a < end) {
            ++listed;
        }
        band_listed_end_[band] = static_cast<std::uint32_t>(listed);
    }
    band_touch_room_ = pairs.size();
    if (ring * most_pairs < pairs.size()) {
        for (std::size_t band = 0; band < bands; ++band) {
            band_touch_start_[band] = static_cast<std::uint32_t>((band % ring) * most_pairs);
        }
        band_touch_room_ = ring * most_pairs;
    }
    // What a substep keeps per circle while its band is in flight goes round a ring of the
    // bands in flight, rounded up to a power of two, where a band is one (band_plan::
    // ring_slot): with entries of their own for every circle, at 1 000 000 circles they were
    // written back to memory and read again each substep.
    const std::size_t ring_entries = std::bit_ceil(ring) * per_band;
    band_ring_mask_ = std::has_single_bit(per_band) && ring_entries < n
                          ? static_cast<std::uint32_t>(ring_entries - 1)
                          : ~std::uint32_t{0};
    bands_current_ = true;
}

// Every substep's phases 1 to 6 in bands (bands.hpp), for a single separation round and
// velocity pass. The substeps overlap (band_substep::in_flight) from
// world_options::overlap_substeps_from circles on, where both the per-circle entries and
// the pair touches go round rings, which each substep in flight then has of its own: a few
// bands' room each. (Without the rings each would need room for every circle or pair.)
void detail::world_state::substeps_in_bands(float h, const detail::kernel_table& kernels) {
    const std::size_t n = size();
    if (!bands_current_) {
        plan_bands();
    }
    const std::size_t bands = band_reach_.size();
    const detail::band_plan plan{options_.circles_per_band,
                                 bands,
                                 band_group_end_.data(),
                                 band_reach_.data(),
                                 band_touch_start_.data(),
                                 band_listed_end_.data(),
                                 band_ring_mask_};
    const std::size_t room = plan.ring_room(n);
    const bool rings =
        band_ring_mask_ != ~std::uint32_t{0} && band_touch_room_ < grouper_.groups().pairs().size();
    const std::size_t in_flight =
        rings && n >= options_.overlap_substeps_from
            ? std::min(static_cast<std::size_t>(options_.substeps), detail::most_substeps_in_flight)
            : 1;
    band_in_flight_ = in_flight;
    moved_from_x_.resize(in_flight * room);
    moved_from_y_.resize(in_flight * room);
    if (box_touching_.size() < box_contacts_.size()) {
        box_touching_.resize(box_contacts_.size());
    }
    if (pair_touching_.size() < in_flight * band_touch_room_) {
        pair_touching_.resize(in_flight * band_touch_room_);
    }
    touch_group_end_.resize(grouper_.groups().ends().size());
    band_box_touch_end_.resize(bands);
    band_velocity_ok_.resize(bands);
    if (band_scratch_.size() < in_flight * 10 * room) {
        band_scratch_ = aligned_floats(in_flight * 10 * room);
    }
    const pair_groups& groups = grouper_.groups();
    detail::band_substep s{
        .plan = plan,
        .substeps = options_.substeps,
        .in_flight = in_flight,
        .gravity_h_x = options_.gravity_x * h,
        .gravity_h_y = options_.gravity_y * h,
        .h = h,
        .moved_x = moved_from_x_.data(),
        .moved_y = moved_from_y_.data(),
        .moved_stride = room,
        .box_listed = box_contacts_.data(),
        .boxes = box_records_.data(),
        .touch = touch_parameters_for(h),
        .box_touches = box_touching_.data(),
        .pairs = groups.pairs().data(),
        .ends = groups.ends().data(),
        .mode = options_.weighting,
        .pair_touches = pair_touching_.data(),
        .pair_touch_stride = band_touch_room_,
        .scratch_stride = 10 * room,
        .hold_fraction = separation_reach / static_cast<float>(options_.substeps),
        .cap = options_.max_correction_speed,
        .box_touch_end = band_box_touch_end_.data(),
        .touch_group_end = touch_group_end_.data(),
        .velocity_ok = band_velocity_ok_.data(),
    };
    kernels.world.substeps_in_bands(slots(), s, band_scratch_.data());
}

} // namespace simdcollide
