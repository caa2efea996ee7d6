// Writing an image (render.hpp) as a PNG file, with libpng.
#pragma once

#include "demo/render.hpp"

#include <string>

namespace simdcollide::demo {

/// Writes `picture` to `path` as an 8-bit RGB PNG. Throws std::runtime_error naming the
/// path and the reason when the file cannot be written.
void write_png(const image& picture, const std::string& path);

} // namespace simdcollide::demo
