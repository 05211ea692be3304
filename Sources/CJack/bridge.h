// The owner's side of the shim's bridge (shim.h): making it, installing the
// callbacks, reading what they count, waking and waiting. Main thread before
// activation (make, set, install), any thread after (read, post, wait);
// never the JACK thread. ToneJack's ProcessBridge is its only user.
//
// Why C: these functions write the bridge's C layout (fixed arrays, a
// sem_t, the page prefaulting through volatile stores) and read the fields
// the callbacks write with __atomic builtins, with the matching orderings,
// next to the callbacks they install (jack_set_*_callback takes the shim's
// C functions).
#ifndef TONENODE_CJACK_BRIDGE_H
#define TONENODE_CJACK_BRIDGE_H

#include "shim.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

// MARK: - Making the bridge (main thread, before activation)

/// Writes a zero into every page of `bytes` at `p` (zeroed memory stays
/// zeroed), so the pages are mapped before the JACK thread touches them:
/// calloc may hand out fresh pages nobody wrote, each a page fault at its
/// first use, and a compiler may drop a memset(0) that follows calloc as
/// redundant; these volatile stores it must keep. Main thread, before activation.
static inline void tn_prefault(void *p, size_t bytes) {
    volatile char *c = (volatile char *)p;
    for (size_t offset = 0; offset < bytes; offset += 4096) c[offset] = 0;
    if (bytes > 0) c[bytes - 1] = 0;
}

static inline tn_bridge *tn_bridge_create(void) {
    tn_bridge *b = (tn_bridge *)calloc(1, sizeof(tn_bridge));
    if (b == NULL) return NULL;
    b->silence = (float *)calloc(TN_SCRATCH_FRAMES, sizeof(float));
    b->discard = (float *)calloc(TN_SCRATCH_FRAMES, sizeof(float));
    if (b->silence == NULL || b->discard == NULL || sem_init(&b->wake, 0, 0) != 0) {
        free(b->silence); free(b->discard); free(b);
        return NULL;
    }
    // Every page the JACK thread may touch, mapped now: the bridge (its MIDI
    // event arrays are touched only in periods with MIDI), the scratch buffers.
    tn_prefault(b, sizeof(tn_bridge));
    tn_prefault(b->silence, TN_SCRATCH_FRAMES * sizeof(float));
    tn_prefault(b->discard, TN_SCRATCH_FRAMES * sizeof(float));
    return b;
}

static inline void tn_bridge_destroy(tn_bridge *b) {
    if (b == NULL) return;
    sem_destroy(&b->wake);
    free(b->profile);
    free(b->silence);
    free(b->discard);
    free(b);
}

static inline void tn_bridge_set_channel(tn_bridge *b, uint32_t index, jack_port_t *in, jack_port_t *out) {
    if (index >= TN_MAX_CHANNELS) return;
    b->in_ports[index] = in;
    b->out_ports[index] = out;
    if (index + 1 > b->channels) b->channels = index + 1;
}

/// Turns the callback profile on. Main thread, before activation. Returns 0 on success.
static inline int tn_bridge_enable_profile(tn_bridge *b) {
    if (b->profile == NULL) b->profile = (tn_callback_profile *)calloc(1, sizeof(tn_callback_profile));
    // A rare long callback lands in a far bin: its page must not fault then.
    if (b->profile != NULL) tn_prefault(b->profile, sizeof(tn_callback_profile));
    return b->profile != NULL ? 0 : -1;
}

static inline void tn_bridge_set_midi_input(tn_bridge *b, jack_port_t *port) { b->midi_in = port; }

/// Main thread, before activation (the outgoing events' pages were mapped
/// when the bridge was made).
static inline void tn_bridge_set_midi_output(tn_bridge *b, jack_port_t *port) {
    b->midi_out = port;
}

static inline void tn_bridge_set_render(tn_bridge *b, tn_render_fn render, void *engine) {
    b->render = render;
    b->engine = engine;
}

// MARK: - Installation (main thread, before jack_activate)

/// Installs every callback of the bridge, in this order. Returns 0 on
/// success, else the code of the refused step (JackError.callbackSetupFailed
/// prints it): -1 process, -6 thread init, -2 xrun, -5 latency.
static inline int tn_bridge_install(jack_client_t *client, tn_bridge *b) {
    if (jack_set_process_callback(client, tn_process, b) != 0) return -1;
    if (jack_set_thread_init_callback(client, tn_thread_init, b) != 0) return -6;
    b->client = client;
    b->sample_rate_hz = (double)jack_get_sample_rate(client);
    if (!b->xruns_from_frame_time && jack_set_xrun_callback(client, tn_xrun, b) != 0) return -2;
    jack_on_info_shutdown(client, tn_shutdown, b);
    if (jack_set_latency_callback(client, tn_latency, b) != 0) return -5;
    return 0;
}

// MARK: - Reader side (worker / main thread)

static inline uint64_t tn_bridge_xruns(const tn_bridge *b) { return __atomic_load_n(&b->xruns, __ATOMIC_RELAXED); }
static inline uint64_t tn_bridge_cycles(const tn_bridge *b) { return __atomic_load_n(&b->cycles, __ATOMIC_ACQUIRE); }
static inline int tn_bridge_is_shutdown(const tn_bridge *b) { return __atomic_load_n(&b->shutdown, __ATOMIC_ACQUIRE); }
static inline uint64_t tn_bridge_midi_dropped(const tn_bridge *b) { return __atomic_load_n(&b->midi_dropped, __ATOMIC_RELAXED); }
static inline uint64_t tn_bridge_midi_out_dropped(const tn_bridge *b) { return __atomic_load_n(&b->midi_out_dropped, __ATOMIC_RELAXED); }

/// Flags the server as gone, as the shutdown callback does, and wakes the
/// worker: for a server found gone some other way (`ServerWatch`).
static inline void tn_bridge_mark_shutdown(tn_bridge *b) { tn_shutdown((jack_status_t)0, NULL, b); }

/// Wakes a waiting worker without a JACK cycle (used to stop it).
static inline void tn_bridge_post(tn_bridge *b) { sem_post(&b->wake); }

/// Sets (1) or clears (0) the watch for sound (see `sound_watch`). Setting
/// it is followed by a full fence: a period the callback ends after this sees
/// the watch, and one that ended before is in the capture rings for the
/// worker's next look.
static inline void tn_bridge_watch_sound(tn_bridge *b, int on) {
    __atomic_store_n(&b->sound_watch, on ? 1 : 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/// Waits for the next cycle or `timeout_ms`. Returns 1 when woken, 0 on timeout.
static inline int tn_bridge_wait(tn_bridge *b, int timeout_ms) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += timeout_ms / 1000;
    ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) { ts.tv_sec += 1; ts.tv_nsec -= 1000000000L; }
    while (sem_timedwait(&b->wake, &ts) != 0) {
        if (errno == EINTR) continue;
        return 0;
    }
    // Collapse a backlog of posts into one wake-up.
    while (sem_trywait(&b->wake) == 0) {}
    return 1;
}

#endif
