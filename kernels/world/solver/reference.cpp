// The soft step's reference kernels: the math of docs/world-design.md ("The step"), one
// contact at a time, in order. The SIMD kernels (solver/simd/solver.hpp) do the same
// operations in the same order, W contacts at a time, and give the same bits.
#include "world/solver/solver_table.hpp"

#include <cmath>
#include <cstddef>
#include <limits>

namespace simdcollide::detail {
namespace {

// x86's maxps and minps: the second operand wins ties and NaN (pairwise/reference/minmax.inl).
float max_ps(float a, float b) {
    return a > b ? a : b;
}
float min_ps(float a, float b) {
    return a < b ? a : b;
}

void bodies_in(particles_view c, float* state, float* shapes) {
    for (std::size_t i = 0; i < c.count; ++i) {
        state[4 * i] = c.vx[i];
        state[4 * i + 1] = c.vy[i];
        state[4 * i + 2] = 0.0F;
        state[4 * i + 3] = 0.0F;
        shapes[4 * i] = c.x[i];
        shapes[4 * i + 1] = c.y[i];
        shapes[4 * i + 2] = c.radius[i];
        shapes[4 * i + 3] = c.inverse_mass[i];
    }
}

void prepare_pairs(const float* state, const float* shapes, const pair_prepare_view& c,
                   std::size_t begin, std::size_t end, float impulse_ratio) {
    for (std::size_t k = begin; k < end; ++k) {
        const float* const sa = shapes + 4 * std::size_t{c.a[k]};
        const float* const sb = shapes + 4 * std::size_t{c.b[k]};
        const float dx = sb[0] - sa[0];
        const float dy = sb[1] - sa[1];
        const float distance = std::sqrt(dx * dx + dy * dy);
        // from a towards b; (1, 0) where the centres coincide (docs/behaviour.md)
        const bool apart = distance > 0.0F;
        const float nx = apart ? dx / distance : 1.0F;
        const float ny = apart ? dy / distance : 0.0F;
        c.normal_x[k] = nx;
        c.normal_y[k] = ny;
        const float base = distance - (sa[2] + sb[2]);
        c.base[k] = base;
        // Each circle's share of the velocity change (contacts.hpp), so that no inverse mass,
        // however small or large, makes an impulse overflow.
        const velocity_shares shares = shares_of(sa[3], sb[3]);
        c.wa[k] = shares.a;
        c.wb[k] = shares.b;
        // Only an impact bounces: a contact that already overlapped (a resting or squeezed
        // one) has no approach speed for restitution (docs/world-design.md, "Restitution").
        const float* const va = state + 4 * std::size_t{c.a[k]};
        const float* const vb = state + 4 * std::size_t{c.b[k]};
        const float approach = (vb[0] - va[0]) * nx + (vb[1] - va[1]) * ny;
        c.approach[k] = base >= 0.0F ? approach : 0.0F;
        c.max_normal[k] = 0.0F;
        c.normal[k] = c.normal[k] * impulse_ratio;
        c.tangent[k] = c.tangent[k] * impulse_ratio;
    }
}

void velocities_out(particles_view c, const float* state) {
    for (std::size_t i = 0; i < c.count; ++i) {
        c.vx[i] = state[4 * i];
        c.vy[i] = state[4 * i + 1];
    }
}

void integrate_velocities(particles_view c, float* state, float gx_h, float gy_h) {
    for (std::size_t i = 0; i < c.count; ++i) {
        if (c.inverse_mass[i] > 0.0F) {
            state[4 * i] = state[4 * i] + gx_h;
            state[4 * i + 1] = state[4 * i + 1] + gy_h;
        }
    }
}

void integrate_positions(particles_view c, float* state, float h, const float* x0,
                         const float* y0) {
    for (std::size_t i = 0; i < c.count; ++i) {
        if (c.inverse_mass[i] > 0.0F) {
            c.x[i] = c.x[i] + state[4 * i] * h;
            c.y[i] = c.y[i] + state[4 * i + 1] * h;
        }
        state[4 * i + 2] = c.x[i] - x0[i];
        state[4 * i + 3] = c.y[i] - y0[i];
    }
}

// A circle's fields in the solver's state.
float& vx_of(const solver_bodies& v, std::uint32_t i) {
    return v.state[4 * std::size_t{i}];
}
float& vy_of(const solver_bodies& v, std::uint32_t i) {
    return v.state[4 * std::size_t{i} + 1];
}
float dx_of(const solver_bodies& v, std::uint32_t i) {
    return v.state[4 * std::size_t{i} + 2];
}
float dy_of(const solver_bodies& v, std::uint32_t i) {
    return v.state[4 * std::size_t{i} + 3];
}

// An impulse (px, py) on circle b, and its opposite on circle a; a static circle (w = 0) is
// not written.
void apply_pair(const solver_bodies& v, std::uint32_t a, std::uint32_t b, float wa, float wb,
                float px, float py) {
    if (wa > 0.0F) {
        vx_of(v, a) = vx_of(v, a) - wa * px;
        vy_of(v, a) = vy_of(v, a) - wa * py;
    }
    if (wb > 0.0F) {
        vx_of(v, b) = vx_of(v, b) + wb * px;
        vy_of(v, b) = vy_of(v, b) + wb * py;
    }
}

void warm_start_pairs(const solver_bodies& v, const pair_contacts_view& c, std::size_t begin,
                      std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
        const float nx = c.normal_x[k];
        const float ny = c.normal_y[k];
        // the friction impulse along the tangent (-ny, nx)
        const float px = c.normal[k] * nx - c.tangent[k] * ny;
        const float py = c.normal[k] * ny + c.tangent[k] * nx;
        apply_pair(v, c.a[k], c.b[k], c.wa[k], c.wb[k], px, py);
    }
}

void warm_start_boxes(const solver_bodies& v, const box_contacts_view& c, std::size_t begin,
                      std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
        const float nx = c.normal_x[k];
        const float ny = c.normal_y[k];
        const float px = c.normal[k] * nx - c.tangent[k] * ny;
        const float py = c.normal[k] * ny + c.tangent[k] * nx;
        const std::uint32_t i = c.circle[k];
        vx_of(v, i) = vx_of(v, i) + px;
        vy_of(v, i) = vy_of(v, i) + py;
    }
}

// The normal impulse's change for a contact of separation s now, closing at vn, with
// accumulated impulse `total` (Box2D v3's soft step): a contact still apart (s > 0) may close
// its gap in the substep and no more; one that overlaps is pushed out softly, at most at
// max_push, in the solve, and held rigidly, without push-out, in the relax.
float normal_change(float s, float vn, float total, const contact_softness& soft,
                    const solve_parameters& p) {
    float bias = 0.0F;
    float mass_scale = 1.0F;
    float impulse_scale = 0.0F;
    if (s > 0.0F) {
        bias = s * p.inverse_h;
    } else if (p.use_bias) {
        bias = max_ps(soft.bias_rate * s, -p.max_push);
        mass_scale = soft.mass_scale;
        impulse_scale = soft.impulse_scale;
    }
    return -mass_scale * (vn + bias) - impulse_scale * total;
}

void solve_pairs(const solver_bodies& v, const pair_contacts_view& c, std::size_t begin,
                 std::size_t end, const solve_parameters& p) {
    for (std::size_t k = begin; k < end; ++k) {
        const std::uint32_t a = c.a[k];
        const std::uint32_t b = c.b[k];
        const float nx = c.normal_x[k];
        const float ny = c.normal_y[k];
        const float wa = c.wa[k];
        const float wb = c.wb[k];
        const float s =
            c.base[k] + ((dx_of(v, b) - dx_of(v, a)) * nx + (dy_of(v, b) - dy_of(v, a)) * ny);
        const float vn = (vx_of(v, b) - vx_of(v, a)) * nx + (vy_of(v, b) - vy_of(v, a)) * ny;
        const contact_softness& soft = wa == 0.0F || wb == 0.0F ? p.fixed : p.moving;
        const float total = c.normal[k];
        const float normal = max_ps(total + normal_change(s, vn, total, soft, p), 0.0F);
        c.normal[k] = normal;
        if (p.keep_max_normal) {
            c.max_normal[k] = max_ps(c.max_normal[k], normal);
        }
        const float dn = normal - total;
        apply_pair(v, a, b, wa, wb, dn * nx, dn * ny);
        // Friction along (-ny, nx), within friction times the normal impulse.
        const float vt = (vx_of(v, b) - vx_of(v, a)) * -ny + (vy_of(v, b) - vy_of(v, a)) * nx;
        const float limit = c.friction[k] * normal;
        const float tangent = max_ps(-limit, min_ps(c.tangent[k] - vt, limit));
        const float dt = tangent - c.tangent[k];
        c.tangent[k] = tangent;
        apply_pair(v, a, b, wa, wb, dt * -ny, dt * nx);
    }
}

void solve_boxes(const solver_bodies& v, const box_contacts_view& c, std::size_t begin,
                 std::size_t end, const solve_parameters& p) {
    for (std::size_t k = begin; k < end; ++k) {
        const std::uint32_t i = c.circle[k];
        const float nx = c.normal_x[k];
        const float ny = c.normal_y[k];
        // the box moves at its velocity: its share of the separation and of the velocity
        const float s =
            c.base[k] + (dx_of(v, i) * nx + dy_of(v, i) * ny) - p.elapsed * c.box_normal[k];
        const float vn = (vx_of(v, i) * nx + vy_of(v, i) * ny) - c.box_normal[k];
        const float total = c.normal[k];
        const float normal = max_ps(total + normal_change(s, vn, total, p.fixed, p), 0.0F);
        c.normal[k] = normal;
        if (p.keep_max_normal) {
            c.max_normal[k] = max_ps(c.max_normal[k], normal);
        }
        const float dn = normal - total;
        vx_of(v, i) = vx_of(v, i) + dn * nx;
        vy_of(v, i) = vy_of(v, i) + dn * ny;
        const float vt = (vx_of(v, i) * -ny + vy_of(v, i) * nx) - c.box_tangent[k];
        const float limit = c.friction[k] * normal;
        const float tangent = max_ps(-limit, min_ps(c.tangent[k] - vt, limit));
        const float dt = tangent - c.tangent[k];
        c.tangent[k] = tangent;
        vx_of(v, i) = vx_of(v, i) + dt * -ny;
        vy_of(v, i) = vy_of(v, i) + dt * nx;
    }
}

void restitution_pairs(const solver_bodies& v, const pair_contacts_view& c, std::size_t begin,
                       std::size_t end, const restitution_parameters& p) {
    for (std::size_t k = begin; k < end; ++k) {
        if (c.approach[k] > -p.threshold || c.max_normal[k] == 0.0F) {
            continue;
        }
        const std::uint32_t a = c.a[k];
        const std::uint32_t b = c.b[k];
        const float nx = c.normal_x[k];
        const float ny = c.normal_y[k];
        const float vn = (vx_of(v, b) - vx_of(v, a)) * nx + (vy_of(v, b) - vy_of(v, a)) * ny;
        const float total = c.normal[k];
        const float normal = max_ps(total - (vn + c.restitution[k] * c.approach[k]), 0.0F);
        c.normal[k] = normal;
        const float dn = normal - total;
        apply_pair(v, a, b, c.wa[k], c.wb[k], dn * nx, dn * ny);
    }
}

void restitution_boxes(const solver_bodies& v, const box_contacts_view& c, std::size_t begin,
                       std::size_t end, const restitution_parameters& p) {
    for (std::size_t k = begin; k < end; ++k) {
        if (c.approach[k] > -p.threshold || c.max_normal[k] == 0.0F) {
            continue;
        }
        const std::uint32_t i = c.circle[k];
        const float nx = c.normal_x[k];
        const float ny = c.normal_y[k];
        const float vn = (vx_of(v, i) * nx + vy_of(v, i) * ny) - c.box_normal[k];
        const float total = c.normal[k];
        const float normal = max_ps(total - (vn + c.restitution[k] * c.approach[k]), 0.0F);
        c.normal[k] = normal;
        const float dn = normal - total;
        vx_of(v, i) = vx_of(v, i) + dn * nx;
        vy_of(v, i) = vy_of(v, i) + dn * ny;
    }
}

} // namespace

const solver_kernels& solver_reference() noexcept {
    static constexpr solver_kernels table{
        &bodies_in,           &prepare_pairs,     &velocities_out,    &integrate_velocities,
        &integrate_positions, &warm_start_pairs,  &warm_start_boxes,  &solve_pairs,
        &solve_boxes,         &restitution_pairs, &restitution_boxes,
    };
    return table;
}

} // namespace simdcollide::detail
