// The soft step's colours (colours.hpp).
#include "world/solver/colours.hpp"

#include <algorithm>
#include <bit>

namespace simdcollide::detail {

namespace {

// Each contact's impulses from `carry`, found by walking both lists in key order: `key(k)`
// is contact k's (lower, higher) key, contacts in ascending key order; position(k) is where
// contact k lies.
template <class Key, class Position, class Contacts>
void import_impulses(std::size_t count, Key&& key, Position&& position,
                     const std::vector<carried_impulse>& carry, Contacts& out) {
    std::size_t c = 0;
    for (std::size_t k = 0; k < count && c < carry.size(); ++k) {
        const auto [a, b] = key(k);
        while (c < carry.size() && (carry[c].a < a || (carry[c].a == a && carry[c].b < b))) {
            ++c;
        }
        if (c < carry.size() && carry[c].a == a && carry[c].b == b) {
            const std::size_t p = position(k);
            out.normal[p] = carry[c].normal;
            out.tangent[p] = carry[c].tangent;
        }
    }
}

// Colour starts from the counts of each colour.
std::vector<std::size_t> starts_of(const std::vector<std::size_t>& counts) {
    std::vector<std::size_t> start(counts.size() + 1, 0);
    for (std::size_t c = 0; c < counts.size(); ++c) {
        start[c + 1] = start[c] + counts[c];
    }
    return start;
}

} // namespace

void colour_pairs(std::span<const circle_pair> pairs, std::span<const float> inverse_mass,
                  const std::vector<carried_impulse>& carry, pair_contacts& out,
                  std::vector<std::uint32_t>& marks) {
    static_assert(pair_colours <= 32, "a colour is a bit of a 32-bit mark");
    constexpr std::uint32_t overflow = pair_colours - 1;
    marks.assign(inverse_mass.size(), 0);
    std::vector<std::uint8_t> colour(pairs.size());
    std::vector<std::size_t> counts(pair_colours, 0);
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const circle_pair q = pairs[k];
        const bool a_moves = inverse_mass[q.a] > 0.0F;
        const bool b_moves = inverse_mass[q.b] > 0.0F;
        const std::uint32_t taken = (a_moves ? marks[q.a] : 0U) | (b_moves ? marks[q.b] : 0U);
        const auto c =
            std::min<std::uint32_t>(static_cast<std::uint32_t>(std::countr_one(taken)), overflow);
        if (c != overflow) {
            marks[q.a] |= a_moves ? 1U << c : 0U;
            marks[q.b] |= b_moves ? 1U << c : 0U;
        }
        colour[k] = static_cast<std::uint8_t>(c);
        ++counts[c];
    }
    out.colour_start = starts_of(counts);
    out.resize(pairs.size());
    std::vector<std::size_t> next(out.colour_start.begin(), out.colour_start.end() - 1);
    std::vector<std::uint32_t>& position = out.position;
    position.resize(pairs.size());
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const std::size_t p = next[colour[k]]++;
        position[k] = static_cast<std::uint32_t>(p);
        out.a[p] = pairs[k].a;
        out.b[p] = pairs[k].b;
        out.normal[p] = 0.0F;
        out.tangent[p] = 0.0F;
    }
    import_impulses(
        pairs.size(),
        [&](std::size_t k) {
            return std::pair{pairs[k].a, pairs[k].b};
        },
        [&](std::size_t k) { return position[k]; }, carry, out);
}

void colour_boxes(std::span<const circle_pair> entries, const std::vector<carried_impulse>& carry,
                  box_contacts& out) {
    std::vector<std::uint8_t> colour(entries.size());
    std::vector<std::size_t> counts(box_colours + 1, 0);
    std::size_t rank = 0;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        rank = k > 0 && entries[k - 1].a == entries[k].a ? rank + 1 : 0;
        const std::size_t c = std::min(rank, box_colours);
        colour[k] = static_cast<std::uint8_t>(c);
        ++counts[c];
    }
    out.colour_start = starts_of(counts);
    out.resize(entries.size());
    std::vector<std::size_t> next(out.colour_start.begin(), out.colour_start.end() - 1);
    std::vector<std::uint32_t>& position = out.position;
    position.resize(entries.size());
    for (std::size_t k = 0; k < entries.size(); ++k) {
        const std::size_t p = next[colour[k]]++;
        position[k] = static_cast<std::uint32_t>(p);
        out.circle[p] = entries[k].a;
        out.box[p] = entries[k].b;
        out.normal[p] = 0.0F;
        out.tangent[p] = 0.0F;
    }
    import_impulses(
        entries.size(),
        [&](std::size_t k) {
            return std::pair{entries[k].a, entries[k].b};
        },
        [&](std::size_t k) { return position[k]; }, carry, out);
}

} // namespace simdcollide::detail
