// Runs a fuzz target on saved inputs without libFuzzer, so that any compiler and any build
// (the sanitizer job, the aarch64 build under qemu) can replay them as a test: every
// argument is a corpus file of one input per line, in hex ("" for the empty input), and
// '#' starts a comment line. A target that finds a difference aborts; otherwise this
// prints how many inputs ran and returns 0 (1 for an unreadable file or a bad line).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

} // namespace

int main(int argc, char** argv) {
    std::size_t inputs = 0;
    for (int f = 1; f < argc; ++f) {
        std::ifstream in(argv[f]);
        if (!in) {
            std::fprintf(stderr, "replay: cannot read %s\n", argv[f]);
            return 1;
        }
        std::string line;
        std::size_t line_number = 0;
        while (std::getline(in, line)) {
            ++line_number;
            if (!line.empty() && line[0] == '#') {
                continue;
            }
            std::vector<std::uint8_t> bytes;
            for (std::size_t k = 0; k + 1 < line.size(); k += 2) {
                const int high = hex_digit(line[k]);
                const int low = hex_digit(line[k + 1]);
                if (high < 0 || low < 0) {
                    break;
                }
                bytes.push_back(static_cast<std::uint8_t>(high * 16 + low));
            }
            if (bytes.size() * 2 != line.size()) {
                std::fprintf(stderr, "replay: %s:%zu is not lower-case hex\n", argv[f],
                             line_number);
                return 1;
            }
            LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
            ++inputs;
        }
    }
    std::printf("replay: %zu inputs, no difference\n", inputs);
    return 0;
}
