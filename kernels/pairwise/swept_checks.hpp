// The checks of sweep_all's arguments (static_boxes.hpp), beside those of the other sweeps
// they share.
#pragma once

#include <simdcollide/soa.hpp>

#include <cstdint>
#include <span>

namespace simdcollide::detail {

/// The moving circles, their moves, the impacts and `box` all of one count, none of the
/// arrays needed null, and the outputs apart from each other and from the inputs. Throws
/// std::invalid_argument otherwise, naming sweep_all.
void check_sweep_all(circles_cview circles, displacements_cview moves, impacts_view out,
                     std::span<std::uint32_t> box);

} // namespace simdcollide::detail
