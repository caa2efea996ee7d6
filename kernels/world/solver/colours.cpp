// The soft step's colours (colours.hpp).
#include "world/solver/colours.hpp"

#include "runtime/tasks.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace simdcollide::detail {

namespace {

// The carried impulses of the entries from `from` on, in key order: walk(key) moves on to
// `key` and says whether the carry holds it, held() then being its impulses.
class carry_walk {
public:
    carry_walk(const std::vector<carried_impulse>& carry, std::uint64_t from)
        : at_(std::partition_point(carry.data(), carry.data() + carry.size(),
                                   [&](const carried_impulse& i) { return key_of(i) < from; })),
          end_(carry.data() + carry.size()) {}

    bool walk(std::uint64_t key) noexcept {
        while (at_ != end_ && key_of(*at_) < key) {
            ++at_;
        }
        return at_ != end_ && key_of(*at_) == key;
    }
    [[nodiscard]] const carried_impulse& held() const noexcept { return *at_; }

private:
    const carried_impulse* at_;
    const carried_impulse* end_;
};

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
                  const material_arrays& materials, const std::vector<carried_impulse>& carry,
                  pair_contacts& out, std::vector<std::uint32_t>& marks, const task_runner& tasks) {
    static_assert(pair_colours <= 32, "a colour is a bit of a 32-bit mark");
    constexpr std::uint32_t overflow = pair_colours - 1;
    const std::size_t n = pairs.size();
    const std::size_t blocks = (n + pairs_per_block - 1) / pairs_per_block;
    // Each pair's colour, greedily in list order (one pass: each pair's colour depends on
    // those before it), and how many of each colour each block of pairs holds.
    marks.assign(inverse_mass.size(), 0);
    std::vector<std::uint8_t> colour(n);
    std::vector<std::uint32_t> count_of_block(blocks * pair_colours, 0);
    for (std::size_t k = 0; k < n; ++k) {
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
        ++count_of_block[k / pairs_per_block * pair_colours + c];
    }
    // Where each block's pairs of each colour go: colours in order, and within a colour the
    // blocks in order, so that a colour keeps list order.
    std::vector<std::size_t> counts(pair_colours, 0);
    std::vector<std::size_t> next_of_block(blocks * pair_colours);
    for (std::size_t c = 0; c < pair_colours; ++c) {
        for (std::size_t k = 0; k < blocks; ++k) {
            next_of_block[k * pair_colours + c] = counts[c];
            counts[c] += count_of_block[k * pair_colours + c];
        }
    }
    out.colour_start = starts_of(counts);
    out.resize(n);
    std::vector<std::uint32_t>& position = out.position;
    position.resize(n);
    // Each block lays out its pairs and takes their impulses from the carry on its own: the
    // blocks write disjoint contacts, the same wherever they run.
    for_each_item(tasks, blocks, [&](std::size_t block) {
        const std::size_t first = block * pairs_per_block;
        const std::size_t end = std::min(n, first + pairs_per_block);
        std::size_t* const next = next_of_block.data() + block * pair_colours;
        for (std::size_t c = 0; c < pair_colours; ++c) {
            next[c] += out.colour_start[c];
        }
        std::uint32_t* const a = out.a.data();
        std::uint32_t* const b = out.b.data();
        float* const normal = out.normal.data();
        float* const tangent = out.tangent.data();
        float* const friction = out.friction.data();
        float* const restitution = out.restitution.data();
        const float* const f = materials.friction.data();
        const float* const e = materials.restitution.data();
        // The carry walked beside the pairs, both in key order, so that each contact's
        // impulses are written once.
        carry_walk carried(carry, first < end ? key_of(pairs[first].a, pairs[first].b) : 0);
        for (std::size_t k = first; k < end; ++k) {
            const std::size_t p = next[colour[k]]++;
            const circle_pair q = pairs[k];
            const bool kept = carried.walk(key_of(q.a, q.b));
            position[k] = static_cast<std::uint32_t>(p);
            a[p] = q.a;
            b[p] = q.b;
            normal[p] = kept ? carried.held().normal : 0.0F;
            tangent[p] = kept ? carried.held().tangent : 0.0F;
            friction[p] = combined_friction(f[q.a], f[q.b]);
            restitution[p] = combined_restitution(e[q.a], e[q.b]);
        }
    });
}

void colour_boxes(std::span<const circle_pair> entries, const material_arrays& circles,
                  const material_arrays& boxes, const std::vector<carried_impulse>& carry,
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
    carry_walk carried(carry, 0);
    for (std::size_t k = 0; k < entries.size(); ++k) {
        const std::size_t p = next[colour[k]]++;
        const bool kept = carried.walk(key_of(entries[k].a, entries[k].b));
        position[k] = static_cast<std::uint32_t>(p);
        out.circle[p] = entries[k].a;
        out.box[p] = entries[k].b;
        out.normal[p] = kept ? carried.held().normal : 0.0F;
        out.tangent[p] = kept ? carried.held().tangent : 0.0F;
        const std::uint32_t c = entries[k].a;
        const std::uint32_t b = entries[k].b;
        out.friction[p] = combined_friction(circles.friction[c], boxes.friction[b]);
        out.restitution[p] = combined_restitution(circles.restitution[c], boxes.restitution[b]);
    }
}

} // namespace simdcollide::detail
