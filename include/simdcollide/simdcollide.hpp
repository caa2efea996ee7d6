// simdcollide: SIMD, data-oriented collision kernels for 2D circles and axis-aligned boxes.
// Everything public, in one include.
#pragma once

#include <simdcollide/box_box.hpp>
#include <simdcollide/circle_aabb.hpp>
#include <simdcollide/circle_circle.hpp>
#include <simdcollide/containers.hpp>
#include <simdcollide/dispatch.hpp>
#include <simdcollide/pair_finder.hpp>
#include <simdcollide/pair_groups.hpp>
#include <simdcollide/queries.hpp>
#include <simdcollide/response.hpp>
#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/static_boxes.hpp>
#include <simdcollide/swept.hpp>
#include <simdcollide/validate.hpp>
#include <simdcollide/version.hpp>
#include <simdcollide/world.hpp>
