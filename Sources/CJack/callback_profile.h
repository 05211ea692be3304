// The callback profile (--profile-callback; off unless a bridge asks): the
// process callback's own duration, CLOCK_MONOTONIC (vDSO, no syscall) at
// entry and exit, into a histogram of 1 µs bins that another thread reads.
// One writer (the JACK thread); readers use the load helpers below.
//
// Why C: the shim's process callback records into it on the JACK thread,
// inline, and Benchmarks/callback-client (a plain C JACK client) uses the same
// block, so both callbacks are measured alike.
#ifndef TONENODE_CJACK_CALLBACK_PROFILE_H
#define TONENODE_CJACK_CALLBACK_PROFILE_H

#include <stdint.h>
#include <time.h>

/// Bins of 1 µs; the last one also counts every longer callback.
#define TN_PROFILE_BINS 4096

typedef struct tn_callback_profile {
    // Written by the one JACK thread with __atomic stores; read with __atomic loads.
    uint64_t count;
    uint64_t total_ns;
    uint64_t worst_ns;
    uint64_t bins[TN_PROFILE_BINS];
} tn_callback_profile;

static inline uint64_t tn_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/// Counts one callback that began at `start_ns`. The one writer's thread only:
/// plain load-add-store (no locked instruction), atomic so readers see whole values.
static inline void tn_profile_record(tn_callback_profile *p, uint64_t start_ns) {
    uint64_t ns = tn_monotonic_ns() - start_ns;
    uint64_t bin = ns / 1000;
    if (bin >= TN_PROFILE_BINS) bin = TN_PROFILE_BINS - 1;
    __atomic_store_n(&p->bins[bin], __atomic_load_n(&p->bins[bin], __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&p->total_ns, __atomic_load_n(&p->total_ns, __ATOMIC_RELAXED) + ns, __ATOMIC_RELAXED);
    if (ns > __atomic_load_n(&p->worst_ns, __ATOMIC_RELAXED)) __atomic_store_n(&p->worst_ns, ns, __ATOMIC_RELAXED);
    __atomic_store_n(&p->count, __atomic_load_n(&p->count, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
}

// Readers (any thread): the count's acquiring load pairs with the record's releasing store.
static inline uint64_t tn_profile_count(const tn_callback_profile *p) { return __atomic_load_n(&p->count, __ATOMIC_ACQUIRE); }
static inline uint64_t tn_profile_total_ns(const tn_callback_profile *p) { return __atomic_load_n(&p->total_ns, __ATOMIC_RELAXED); }
static inline uint64_t tn_profile_worst_ns(const tn_callback_profile *p) { return __atomic_load_n(&p->worst_ns, __ATOMIC_RELAXED); }
static inline uint64_t tn_profile_bin(const tn_callback_profile *p, uint32_t index) {
    return index < TN_PROFILE_BINS ? __atomic_load_n(&p->bins[index], __ATOMIC_RELAXED) : 0;
}

#endif
