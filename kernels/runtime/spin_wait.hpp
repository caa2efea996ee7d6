// How a worker waits a moment in a spin loop (the pool's workers between tasks, and those of
// a task of stages between its stages).
#pragma once

#include <thread>

namespace simdcollide::detail {

/// One turn of a spin loop: a pause, which tells the core that this thread waits so that its
/// sibling runs, or, where there are more workers than cores (`yield`), the core given up.
inline void wait_a_little(bool yield) noexcept {
    if (yield) {
        std::this_thread::yield();
        return;
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

} // namespace simdcollide::detail
