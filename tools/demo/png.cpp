// write_png (png.hpp) through libpng's simplified API.
#include "demo/png.hpp"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace simdcollide::demo {

void write_png(const image& picture, const std::string& path) {
    // Opened here rather than by libpng, so that the reason a path cannot be written
    // (no such folder, no permission) reaches the message.
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"),
                                                               &std::fclose);
    if (!file) {
        throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    }
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    png.width = static_cast<png_uint_32>(picture.width);
    png.height = static_cast<png_uint_32>(picture.height);
    png.format = PNG_FORMAT_RGB;
    if (png_image_write_to_stdio(&png, file.get(), 0, picture.pixels.data(), 0, nullptr) == 0) {
        const std::string why = png.message;
        png_image_free(&png);
        throw std::runtime_error("cannot write " + path + ": " + why);
    }
}

} // namespace simdcollide::demo
