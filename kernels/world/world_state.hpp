// The particle world's state and every stage of its step: what particle_world (world.hpp)
// is the public face of. Internal, not installed: the world's stages (kernels/world/*.cpp)
// define its functions, and the tests and benchmarks reach what they look into through
// state_of(world).
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/containers.hpp>
#include <simdcollide/world.hpp>

#include "broad_phase/circle_grid.hpp"
#include "broad_phase/pair_search.hpp"
#include "world/solver/carry.hpp"
#include "world/solver/contacts.hpp"
#include "world/world_profile.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace simdcollide::detail {

class worker_pool;
struct task_runner;
struct kernel_table;
struct solver_kernels;

/// A particle world (world.hpp, which says what a step does): its circles, boxes and lists,
/// and the stages of its step, each in a file of its own (docs/architecture.md).
class world_state {
public:
    using listing_counts = particle_world::listing_counts;
    static constexpr std::size_t sort_every = particle_world::sort_every;
    static constexpr float max_time_step = particle_world::max_time_step;
    static constexpr float min_substep = particle_world::min_substep;

    /// Throws std::invalid_argument if an option is out of range (see world_options).
    explicit world_state(world_options options);

    // What particle_world's functions of the same names do.
    std::size_t add_circle(circle c, float inverse_mass, float vx, float vy);
    std::size_t add_circles(circles_cview circles, std::span<const float> inverse_mass,
                            std::span<const float> vx, std::span<const float> vy);
    void remove_circle(std::size_t index);
    std::size_t remove_marked(std::span<const std::uint8_t> doomed);
    void set_boxes(aabbs_view boxes);
    std::size_t add_kinematic_box(aabb box, float vx, float vy);
    void set_kinematic_velocity(std::size_t index, float vx, float vy);
    void move_kinematic_box(std::size_t index, aabb next);
    void remove_kinematic_box(std::size_t index);
    [[nodiscard]] std::size_t kinematic_box_count() const noexcept { return kinematic_.vx.size(); }
    [[nodiscard]] particle_world::kinematic_box kinematic_box_at(std::size_t index) const;
    void step(float dt);
    [[nodiscard]] std::size_t size() const noexcept { return indexed_.x.size(); }
    [[nodiscard]] particles_view particles() noexcept;
    [[nodiscard]] const static_box_grid& boxes() const noexcept { return grid_; }
    [[nodiscard]] const world_options& options() const noexcept { return options_; }
    [[nodiscard]] std::size_t last_pair_count() const noexcept { return pairs_.size(); }
    [[nodiscard]] std::vector<circle_pair> listed_pairs() const;
    [[nodiscard]] listing_counts listings() const noexcept { return listings_; }

    // For tests, benchmarks and diagnostics.
    /// The listed pairs as the step keeps them: in slot indices (the circles in the step's own
    /// order, which the world sorts them into now and then), sorted. Valid until the next
    /// step.
    [[nodiscard]] std::span<const circle_pair> pairs_in_slots() const noexcept { return pairs_; }
    /// The step's contacts and their impulses, in colour order (solver/contacts.hpp). Valid
    /// until the next step.
    [[nodiscard]] const detail::pair_contacts& pair_contacts_in_slots() const noexcept {
        return pair_contacts_;
    }
    [[nodiscard]] const detail::box_contacts& box_contacts_of_step() const noexcept {
        return box_solver_contacts_;
    }
    /// The caller's index of the circle in slot s.
    [[nodiscard]] std::uint32_t circle_of_slot(std::size_t s) const noexcept {
        return circle_of_slot_[s];
    }
    /// Seconds spent in each stage of the steps since keep_profile(true) (world_profile.hpp).
    /// For benchmarks; a world keeps none unless asked.
    [[nodiscard]] const step_profile& profile() const noexcept { return clock_.profile(); }
    void keep_profile(bool on) noexcept { clock_.keep(on); }
    /// The listed circle-box entries as the step keeps them: (slot, box), where box indexes
    /// boxes().boxes(), sorted by slot and then box. For tests and diagnostics; valid until
    /// the next step.
    [[nodiscard]] std::span<const circle_pair> box_contacts_in_slots() const noexcept {
        return box_contacts_;
    }
    /// What a step of dt does to find its fast circles (the sweep stage's look), alone: the
    /// floor, then each substep's look, all from the state as it is. Returns how many fast
    /// circles the looks found. For the benchmarks.
    std::size_t look_for_fast_circles(float dt);
    /// The (slot, kinematic box) entries of the last step:
    /// each circle whose listed reach meets a kinematic box's path over the step, by slot
    /// and then box. For tests; valid until the next step.
    [[nodiscard]] std::size_t kinematic_entry_count() const noexcept {
        return kinematic_found_.size();
    }
    /// How the entries were found: afresh (every box), and in part (the boxes that left
    /// their regions and the circles listed again alone), over the world's steps.
    [[nodiscard]] listing_counts kinematic_listings() const noexcept { return kinematic_listings_; }
    /// Has the next step list every kinematic box's entries afresh. For tests.
    void relist_kinematic_boxes() noexcept { kinematic_listed_ = false; }
    /// The circles in those entries, each once.
    [[nodiscard]] std::size_t kinematic_circle_count() const noexcept {
        std::size_t circles = 0;
        for (std::size_t e = 0; e < kinematic_found_.size(); ++e) {
            circles += e == 0 || kinematic_found_[e].a != kinematic_found_[e - 1].a ? 1 : 0;
        }
        return circles;
    }

private:
    /// Most circles listed again on their own before a step lists everything again: an
    /// eighth of them, and at least 64. Each costs a look at the few cells near it; what it
    /// costs beyond that, passes over the lists and now and then a sort of every circle
    /// into cells, is far below a full listing's search.
    [[nodiscard]] std::size_t relist_at_most() const noexcept {
        return size() / 8 > 64 ? size() / 8 : 64;
    }

    enum class listing { kept, some, all };
    [[nodiscard]] float step_fall(float dt) const;
    [[nodiscard]] float step_reach(std::size_t i, float dt, float fall) const;
    [[nodiscard]] listing listing_needed(float dt);
    bool find_leavers(std::size_t begin, std::size_t end, float dt, float fall,
                      std::vector<std::uint32_t>& leavers) const;
    void list_contacts(float dt);
    void relist_leavers(float dt);
    void list_box_contacts();
    void append_box_contacts(std::size_t i, std::vector<circle_pair>& out,
                             std::vector<std::uint32_t>& candidates) const;
    template <class Find>
    void find_in_blocks(std::size_t count, std::vector<circle_pair>& out, Find&& find);
    void solve_step(float dt, const detail::kernel_table& kernels);
    void make_contacts(bool lists_changed);
    void prepare_contacts(float h, const detail::solver_kernels& solver);
    void keep_impulses();
    /// Slot i's velocity and move, as a sweep left them, into the solver's state.
    void settle_in_solver(std::size_t i) noexcept {
        bodies_[4 * i] = vx_[i];
        bodies_[4 * i + 1] = vy_[i];
        bodies_[4 * i + 2] = x_[i] - start_x_[i];
        bodies_[4 * i + 3] = y_[i] - start_y_[i];
    }
    void keep_impulses_by_circle();
    [[nodiscard]] bool fast_in_step(float h);
    [[nodiscard]] float fast_floor(float h);
    void find_fast_circles(float h, float floor, const detail::kernel_table& kernels);
    void list_static_circles();
    void sweep_fast_circles();
    void sweep_fast_circle(std::size_t k, const float* boxes, std::uint32_t box_count,
                           std::vector<std::uint32_t>& near);
    void plan_kinematic_step(float dt);
    void list_kinematic_entries(listing listed, bool resorted);
    void list_near_kinematic_box(std::size_t box, std::vector<circle_pair>& out);
    void relist_kinematic_entries(listing listed);
    void index_kinematic_entries();
    void index_kinematic_circles();
    void kinematic_substep_start(int substep);
    void note_kinematic_starts(float h);
    void sweep_kinematic_boxes();
    void finish_kinematic_step();
    [[nodiscard]] std::size_t static_box_count() const noexcept { return grid_.boxes().count; }
    /// The step's listed (circle, box) entries: the static boxes', and where circles are
    /// listed with kinematic boxes, theirs too (box static_box_count() + k for kinematic box
    /// k), by slot and then box.
    [[nodiscard]] const std::vector<circle_pair>& step_box_contacts() const noexcept {
        return kinematic_found_.empty() ? box_contacts_ : kinematic_box_contacts_;
    }
    /// The velocity in contacts of the step's box `box` (as step_box_contacts() numbers
    /// them), into (vx, vy): a kinematic box's is taken away, a static box's is none.
    void relative_to_box(std::uint32_t box, float& vx, float& vy) const noexcept {
        const std::size_t k = std::size_t{box} - static_box_count();
        if (box >= static_box_count() && k < kinematic_.contact_vx.size()) {
            vx -= kinematic_.contact_vx[k];
            vy -= kinematic_.contact_vy[k];
        }
    }
    void sort_slots();
    [[nodiscard]] detail::task_runner task_runner() const noexcept;
    void gather(const detail::kernel_table& kernels);
    void scatter(const detail::kernel_table& kernels);
    [[nodiscard]] particles_view slots() noexcept;

    world_options options_;
    // The circles as the caller indexes them (particles()).
    struct {
        aligned_floats x, y, radius, inverse_mass, vx, vy;
    } indexed_;
    // The same fields in slot order, where a step works, the circle in each slot and the
    // slot of each circle. Every list below names slots.
    aligned_floats x_, y_, radius_, inverse_mass_, vx_, vy_;
    std::vector<std::uint32_t> circle_of_slot_, slot_of_circle_;
    std::size_t steps_ = 0;
    static_box_grid grid_;
    detail::pair_search finder_;
    std::vector<circle_pair> pairs_;
    std::vector<circle_pair> box_contacts_; // (circle, box)
    // The grid's boxes as records of (min x, min y, max x, max y), then the kinematic boxes'
    // where the substep under way ends them (the sweeps'); and the step's boxes for its
    // contacts: every box where the step starts it, and its velocity in contacts.
    aligned_floats box_records_;
    std::vector<float> step_box_records_, step_box_vx_, step_box_vy_;
    // The soft step (world_solve.cpp): the contacts, in colour order, and their impulses;
    // the impulses while the contacts are made again; the box entries the box contacts were
    // made from; each circle's place at the step's start, and its state in the solver
    // (solver_bodies: velocity and move since the step's start); the substep the impulses
    // were last accumulated over (0: none); scratch for the colouring.
    detail::pair_contacts pair_contacts_;
    detail::box_contacts box_solver_contacts_;
    detail::impulse_carry carried_;
    std::vector<circle_pair> contacts_made_from_;
    bool contacts_current_ = false;
    aligned_floats start_x_, start_y_, bodies_;
    aligned_floats shapes_; // (x, y, radius, inverse mass) a slot, where the step began
    float impulses_h_ = 0.0F;
    std::vector<std::uint32_t> colour_marks_;
    // find_in_blocks' lists of entries (on workers) and scratch, a block each
    std::vector<std::vector<circle_pair>> found_of_block_;
    std::vector<std::vector<std::uint32_t>> candidates_of_block_;
    aligned_floats search_radius_;
    // The last listing: positions, radii and inverse masses then, and each circle's margin.
    std::vector<float> listed_x_, listed_y_, listed_radius_, listed_inverse_mass_, listed_margin_;
    bool boxes_changed_ = true;
    bool circles_changed_ = true; // added or removed since the last sort into slots
    // Partial listing: the circles that would leave their margins (ascending), a flag per
    // circle for them, the lists' new entries, and a scratch list for each list to be
    // merged into (holding its last version). The listed circles (listed centre,
    // search radius) sorted into cells, and those listed again since that sort (relisted_),
    // whose cell entries are out of date; cells_current_ is false from each full listing
    // until the next sort.
    std::vector<std::uint32_t> leavers_;
    std::vector<std::vector<std::uint32_t>> leavers_of_block_; // listing_needed's, per block
    std::vector<std::uint8_t> is_leaver_;
    std::vector<circle_pair> new_pairs_, merged_pairs_, merged_box_contacts_;
    detail::circle_cells listed_cells_;
    detail::moved_circles relisted_;
    bool cells_current_ = false;
    listing_counts listings_;
    // Continuous collision (world_sweep.cpp): the substep's fast circles (slots, ascending;
    // found per block of circles) and where each started it; the static circles' bounding
    // squares in a grid of their own (current while static_circles_current_, which each
    // step clears), the slot of each (found per block of slots), and the candidates of each
    // block of sweeps.
    std::vector<std::uint32_t> fast_;
    std::vector<std::vector<std::uint32_t>> fast_of_block_;
    std::vector<float> fast_start_x_, fast_start_y_;
    float fast_floor_ = 0.0F; // fast_floor() for the step's substeps
    // The substep's largest squared speed before its positions, where find_fast_circles looked at
    // it; infinity where it did not.
    float fastest_ = 0.0F;
    static_box_grid static_circles_;
    std::vector<std::uint32_t> static_slots_;
    std::vector<std::vector<std::uint32_t>> static_of_block_, near_of_block_;
    bool static_circles_current_ = false;
    // Kinematic boxes (world_kinematic.cpp), by index: where each is, its velocity, and the
    // place move_kinematic_box gave it for the next step (if moving). For the step under
    // way: where each started it, its corners' move a substep, and its velocity in contacts;
    // where each is at the start (box_from) and end (box_to) of the substep under way, as
    // records of (min x, min y, max x, max y).
    struct {
        std::vector<float> min_x, min_y, max_x, max_y, vx, vy;
        std::vector<std::uint8_t> moving;
        std::vector<float> next_min_x, next_min_y, next_max_x, next_max_y;
        std::vector<float> step_move; // 4 a box: the corners' move a substep
        std::vector<float> step_end;  // 4 a box: where the step ends its corners
        // 4 a box: the bounds that its entries were listed for (where it went in the step
        // it was listed in, and a margin), kept while it goes no further
        std::vector<float> region;
        std::vector<float> contact_vx, contact_vy;
        std::vector<float> box_from, box_to;
        std::vector<float> centre_move; // 2 a box: its centre's move in the substep
        float furthest_move = 0.0F;     // the furthest a box's centre moves in the substep
        bool sweeps = false;            // whether a circle can be fast against a box (1c)
    } kinematic_;
    // The step's entries (kinematic_found_: (slot, kinematic box), by slot and then box,
    // world_kinematic_lists.cpp), and for the kinematic sweeps the circles in them (slots,
    // ascending), the first of each one's boxes in kinematic_box_of_ (and one past the last), and
    // where each circle started the substep; scratch for sorting, and where each slot's entries
    // start; and the entries merged with the static boxes' (step_box_contacts()).
    std::vector<std::uint32_t> kinematic_circles_, kinematic_first_, kinematic_box_of_;
    std::vector<float> kinematic_start_x_, kinematic_start_y_;
    std::vector<circle_pair> kinematic_found_, kinematic_sorted_, kinematic_box_contacts_;
    std::vector<std::uint32_t> kinematic_slot_start_;
    // Whether kinematic_found_ holds each box's entries for its region and the circles'
    // lists as they are; the regions in a grid (current while kinematic_regions_current_),
    // for the circles listed again on their own; and scratch.
    bool kinematic_listed_ = false;
    bool kinematic_circles_current_ = false; // kinematic_circles_ and the rest, this step's
    listing_counts kinematic_listings_;
    static_box_grid kinematic_regions_;
    bool kinematic_regions_current_ = false;
    std::vector<circle_pair> kinematic_fresh_;
    std::vector<std::uint32_t> kinematic_near_;
    std::vector<std::uint8_t> kinematic_regrown_;
    // Workers: the world's own pool (none with one worker or the host's callbacks), and the
    // callbacks the step's tasks go to (none: the calling thread runs them).
    std::shared_ptr<detail::worker_pool> pool_;
    task_callbacks tasks_{};
    stage_clock clock_;
};

/// The state behind a world: for the tests and benchmarks that look into its step.
world_state& state_of(particle_world& world) noexcept;
const world_state& state_of(const particle_world& world) noexcept;

} // namespace simdcollide::detail
