// The thin C layer between JACK and ToneNode's Swift engine.
//
// Everything that runs on the JACK real-time thread and calls into libjack or
// libc lives here, so the Swift side of the RT path can be checked with
// @_noLocks: the process callback fetches the port buffers (every cycle, as
// JACK requires), calls the Swift render function, and wakes the analysis
// worker with sem_post (async-signal-safe, never blocks). The xrun and
// shutdown callbacks only bump counters / set a flag and post.
#ifndef TONENODE_CJACK_SHIM_H
#define TONENODE_CJACK_SHIM_H

#include <jack/jack.h>
#include <jack/types.h>
#include <jack/metadata.h>
#include <jack/uuid.h>
#include <jack/midiport.h>
#include <semaphore.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <unistd.h>
#include "loop_relay.h"

// pipe2 is declared by glibc only under _GNU_SOURCE, which Swift's Glibc
// module does not set: declared here (the same prototype) for tn_pipe_cloexec.
extern int pipe2(int pipefd[2], int flags);

/// A pipe whose ends are close-on-exec from the start, so no child that
/// another thread spawns meanwhile inherits them.
static inline int tn_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

#define TN_MAX_CHANNELS 8
/// `wake_every_frames` value: the process callback never posts.
#define TN_NEVER_WAKE UINT32_MAX
// Longest period a bridge with a missing port runs (JACK periods are at most 8192 frames in practice).
#define TN_SCRATCH_FRAMES 16384

// MARK: - MIDI input (events copied for the Swift render)

/// Events per period the bridge hands to Swift; more are counted and dropped.
#define TN_MAX_MIDI_EVENTS 512

/// One short MIDI message (1 to 3 bytes; longer ones, sysex, are not for us)
/// at frame `time` of the period. ToneJack's `MIDIEvent` mirrors this layout
/// (checked when a bridge is made), so Swift reads the events without CJack.
typedef struct tn_midi_event {
    uint32_t time;
    uint32_t size;
    uint8_t data[4];
} tn_midi_event;

/// Swift's render entry point. Runs on the JACK thread; must not block.
/// `midi` holds `midi_count` `tn_midi_event`s of this period in time order;
/// it is untyped so the Swift signature names no CJack type. `midi_out`
/// (NULL without a MIDI output port) has room for TN_MAX_MIDI_EVENTS
/// `tn_midi_event`s: the render writes the period's outgoing messages there,
/// in time order, and their count to `*midi_out_count` (0 on entry); the
/// shim then writes them to the port with jack_midi_event_write.
typedef void (*tn_render_fn)(void *engine,
                             const float *const *inputs,
                             float *const *outputs,
                             uint32_t channels,
                             uint32_t nframes,
                             const void *midi,
                             uint32_t midi_count,
                             void *midi_out,
                             uint32_t *midi_out_count);

// MARK: - Callback profile (--profile-callback; off unless a bridge asks)
//
// The process callback's own duration, CLOCK_MONOTONIC (vDSO, no syscall) at
// entry and exit, into a histogram of 1 µs bins that another thread reads.
// One writer (the JACK thread); readers use the load helpers below. Off, the
// callback pays one predictable NULL test at entry and one at exit.
// benchmarks/callback-client uses the same block, so both are measured alike.

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

static inline uint64_t tn_profile_count(const tn_callback_profile *p) { return __atomic_load_n(&p->count, __ATOMIC_ACQUIRE); }
static inline uint64_t tn_profile_total_ns(const tn_callback_profile *p) { return __atomic_load_n(&p->total_ns, __ATOMIC_RELAXED); }
static inline uint64_t tn_profile_worst_ns(const tn_callback_profile *p) { return __atomic_load_n(&p->worst_ns, __ATOMIC_RELAXED); }
static inline uint64_t tn_profile_bin(const tn_callback_profile *p, uint32_t index) {
    return index < TN_PROFILE_BINS ? __atomic_load_n(&p->bins[index], __ATOMIC_RELAXED) : 0;
}

typedef struct tn_bridge {
    jack_port_t *in_ports[TN_MAX_CHANNELS];
    jack_port_t *out_ports[TN_MAX_CHANNELS];
    const float *in_bufs[TN_MAX_CHANNELS];
    float *out_bufs[TN_MAX_CHANNELS];
    uint32_t channels;
    tn_render_fn render;
    void *engine;
    // MIDI input: the port (NULL: none); the period's events are at the end.
    jack_port_t *midi_in;
    uint64_t midi_dropped;   // __atomic builtins only
    // MIDI output (`measure --what midi`): the port (NULL: none); the
    // events the render writes each period are at the end.
    jack_port_t *midi_out;
    uint32_t midi_out_count;    // JACK thread only
    uint64_t midi_out_dropped;  // __atomic builtins only
    sem_t wake;
    // Written with __atomic builtins only (plain types so Swift can import the struct).
    // Server xruns (the xrun callback), or with `xruns_from_frame_time` the
    // periods tn_check_frame_time finds: the frame time jumped, or the
    // callback began more than two periods after the last.
    uint64_t xruns;
    uint64_t cycles;
    int32_t shutdown;
    // Wake the worker only once this many frames have arrived since the last
    // wake (0: every cycle). Set before activation; the worker can do nothing
    // with less than a hop, and every sem_post to a waiting worker is a futex
    // syscall and a context switch inside the period.
    // TN_NEVER_WAKE: never (the waiting thread keeps its own clock; see
    // AnalysisWorker: a post wakes a thread that, without real-time
    // scheduling, can preempt the JACK thread before the callback returns).
    uint32_t wake_every_frames;
    uint32_t frames_since_wake;  // JACK thread only
    // Set by an idle worker (every input has been ±0 for a window) before it
    // sleeps long; the process callback, seeing it, looks at the inputs and
    // on the first non-zero sample clears it and posts once (a post on that
    // transition only, never per period). __atomic builtins only.
    int32_t sound_watch;
    tn_callback_profile *profile;  // NULL: not profiled (set before activation)
    // Stand-ins for ports a command does not register (`send` has no `in`,
    // `receive` no `out`): `silence` is read as a missing input (all zeros,
    // never written), `discard` is written as a missing output. Allocated
    // with the bridge, TN_SCRATCH_FRAMES long.
    float *silence;
    float *discard;
    // Count xruns without the xrun callback (set before installation): jack2
    // sends an xrun callback to every client that has one for every client
    // late in an xrun cycle (JackEngine::CheckXRun), each a wake of the
    // client's notification thread; a graph of N late clients costs every
    // such client N wakes, more load, more xruns. Instead the process
    // callback compares the cycle's frame time (jack_last_frame_time) and its
    // own start (monotonic clock) with the last ones: a jump is an xrun that
    // reached this client (a period it missed or ran late for, a stalled server).
    int32_t xruns_from_frame_time;
    jack_client_t *client;             // set by tn_bridge_install
    jack_nframes_t last_frame_time;    // JACK thread only
    uint64_t last_callback_ns;         // JACK thread only (monotonic clock)
    double sample_rate_hz;             // set by tn_bridge_install
    jack_nframes_t last_period_frames; // JACK thread only; 0: no period seen yet
    // Last, after every field a period reads (about 400 bytes, a few cache
    // lines): the event arrays, 6 KB each, touched only in periods that
    // carry MIDI. With them in the middle, a period's fields spanned three
    // pages; a chain of many clients on few cores gets back to each one with
    // its caches and TLB cold.
    tn_midi_event midi_events[TN_MAX_MIDI_EVENTS];
    tn_midi_event midi_out_events[TN_MAX_MIDI_EVENTS];
} tn_bridge;

// jack_client_open is variadic; Swift cannot call it directly.
static inline jack_client_t *tn_client_open(const char *name, jack_options_t options,
                                            jack_status_t *status, const char *server_name) {
    if (server_name != NULL && server_name[0] != '\0') {
        return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server_name);
    }
    return jack_client_open(name, options, status);
}

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

/// Copies the period's short MIDI messages into `b->midi_events`. JACK thread.
static inline uint32_t tn_collect_midi(tn_bridge *b, jack_nframes_t nframes) {
    if (b->midi_in == NULL) return 0;
    // Unconnected (the usual case): no events, and no buffer to ask for. jack2
    // clears an unconnected input's buffer in every jack_port_get_buffer, a
    // write to one more shared-memory page a period. jack_port_connected reads
    // the graph state the audio ports' buffers were just found in (lock-free:
    // on the process thread it never waits for a graph change).
    if (jack_port_connected(b->midi_in) <= 0) return 0;
    void *buffer = jack_port_get_buffer(b->midi_in, nframes);
    if (buffer == NULL) return 0;
    uint32_t count = 0;
    uint32_t available = jack_midi_get_event_count(buffer);
    for (uint32_t i = 0; i < available; i++) {
        jack_midi_event_t event;
        if (jack_midi_event_get(&event, buffer, i) != 0) continue;
        if (event.size < 1 || event.size > 3) continue;
        if (count == TN_MAX_MIDI_EVENTS) {
            __atomic_fetch_add(&b->midi_dropped, 1, __ATOMIC_RELAXED);
            continue;
        }
        tn_midi_event *copy = &b->midi_events[count++];
        copy->time = event.time;
        copy->size = (uint32_t)event.size;
        copy->data[0] = event.buffer[0];
        copy->data[1] = event.size > 1 ? event.buffer[1] : 0;
        copy->data[2] = event.size > 2 ? event.buffer[2] : 0;
        copy->data[3] = 0;
    }
    return count;
}

static inline uint64_t tn_bridge_midi_dropped(const tn_bridge *b) { return __atomic_load_n(&b->midi_dropped, __ATOMIC_RELAXED); }

/// Main thread, before activation (the outgoing events' pages were mapped
/// when the bridge was made).
static inline void tn_bridge_set_midi_output(tn_bridge *b, jack_port_t *port) {
    b->midi_out = port;
}

/// Writes the events the render left in `b->midi_out_events` to the MIDI
/// output port at their frames (the port buffer is cleared every period, as
/// JACK requires of an output). jack_midi_event_write copies into the
/// port's preallocated buffer: no allocation, no lock. Events the buffer
/// has no room for, or out of order, are counted and dropped. JACK thread.
static inline void tn_emit_midi(tn_bridge *b, jack_nframes_t nframes) {
    if (b->midi_out == NULL) return;
    void *buffer = jack_port_get_buffer(b->midi_out, nframes);
    if (buffer == NULL) return;
    jack_midi_clear_buffer(buffer);
    uint32_t count = b->midi_out_count < TN_MAX_MIDI_EVENTS ? b->midi_out_count : TN_MAX_MIDI_EVENTS;
    for (uint32_t i = 0; i < count; i++) {
        const tn_midi_event *event = &b->midi_out_events[i];
        if (event->size < 1 || event->size > 3 || event->time >= nframes
            || jack_midi_event_write(buffer, event->time, event->data, event->size) != 0) {
            __atomic_fetch_add(&b->midi_out_dropped, 1, __ATOMIC_RELAXED);
        }
    }
}

static inline uint64_t tn_bridge_midi_out_dropped(const tn_bridge *b) { return __atomic_load_n(&b->midi_out_dropped, __ATOMIC_RELAXED); }

static inline void tn_bridge_set_render(tn_bridge *b, tn_render_fn render, void *engine) {
    b->render = render;
    b->engine = engine;
}

// MARK: - JACK callbacks (JACK threads)

/// Whether any input sample of the period is other than ±0 (NaN counts).
static inline int tn_inputs_sound(const tn_bridge *b, jack_nframes_t nframes) {
    for (uint32_t i = 0; i < b->channels; i++) {
        const float *in = b->in_bufs[i];
        for (jack_nframes_t n = 0; n < nframes; n++) {
            if (in[n] != 0.0f) return 1;
        }
    }
    return 0;
}

/// `xruns_from_frame_time`: one xrun when this cycle's frame time is not the
/// last cycle's plus its length (periods missed or run twice; unsigned, so
/// the 32-bit wrap is no jump), or when this callback starts more than two
/// periods after the last one did (the server stalled: a sync-mode server
/// waiting on a late client, a driver xrun, where jack2's frames go on
/// without a gap; or this thread was held up that long).
static inline void tn_check_frame_time(tn_bridge *b, jack_nframes_t nframes, uint64_t now_ns) {
    jack_nframes_t frames = jack_last_frame_time(b->client);
    if (b->last_period_frames != 0
        && ((jack_nframes_t)(frames - b->last_frame_time) != b->last_period_frames
            || (double)(now_ns - b->last_callback_ns) * b->sample_rate_hz > 2e9 * (double)b->last_period_frames)) {
        __atomic_fetch_add(&b->xruns, 1, __ATOMIC_RELAXED);
    }
    b->last_frame_time = frames;
    b->last_callback_ns = now_ns;
    b->last_period_frames = nframes;
}

static inline int tn_process(jack_nframes_t nframes, void *arg) {
    tn_bridge *b = (tn_bridge *)arg;
    // One clock read at entry serves the profile and the xrun check.
    uint64_t entry_ns = (b->profile != NULL || b->xruns_from_frame_time) ? tn_monotonic_ns() : 0;
    if (b->xruns_from_frame_time) tn_check_frame_time(b, nframes, entry_ns);
    for (uint32_t i = 0; i < b->channels; i++) {
        // A port the command did not register reads silence or writes to the discard buffer.
        if ((b->in_ports[i] == NULL || b->out_ports[i] == NULL) && nframes > TN_SCRATCH_FRAMES) return 0;
        b->in_bufs[i] = b->in_ports[i] ? (const float *)jack_port_get_buffer(b->in_ports[i], nframes) : b->silence;
        b->out_bufs[i] = b->out_ports[i] ? (float *)jack_port_get_buffer(b->out_ports[i], nframes) : b->discard;
        if (b->out_bufs[i] == NULL || b->in_bufs[i] == NULL) return 0;
    }
    uint32_t midi_count = tn_collect_midi(b, nframes);
    b->midi_out_count = 0;
    if (b->render != NULL) {
        b->render(b->engine, b->in_bufs, b->out_bufs, b->channels, nframes, b->midi_events, midi_count,
                  b->midi_out != NULL ? b->midi_out_events : NULL, &b->midi_out_count);
    }
    tn_emit_midi(b, nframes);
    __atomic_fetch_add(&b->cycles, 1, __ATOMIC_RELEASE);
    // Pairs with the fence in tn_bridge_watch_sound: either the worker sees
    // this period in the ring after setting the watch, or this sees the watch.
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&b->sound_watch, __ATOMIC_RELAXED) && tn_inputs_sound(b, nframes)
        && __atomic_exchange_n(&b->sound_watch, 0, __ATOMIC_RELAXED)) {
        sem_post(&b->wake);
    }
    b->frames_since_wake += nframes;
    if (b->wake_every_frames != TN_NEVER_WAKE && b->frames_since_wake >= b->wake_every_frames) {
        b->frames_since_wake = 0;
        sem_post(&b->wake);
    }
    if (b->profile != NULL) tn_profile_record(b->profile, entry_ns);
    return 0;
}

static inline int tn_xrun(void *arg) {
    tn_bridge *b = (tn_bridge *)arg;
    __atomic_fetch_add(&b->xruns, 1, __ATOMIC_RELAXED);
    return 0;
}

static inline void tn_shutdown(jack_status_t code, const char *reason, void *arg) {
    (void)code; (void)reason;
    tn_bridge *b = (tn_bridge *)arg;
    __atomic_store_n(&b->shutdown, 1, __ATOMIC_RELEASE);
    sem_post(&b->wake);
}

// MARK: - Port latency (terminal ports)
//
// ToneNode's ports are terminal: `out` makes its signal, `in` consumes it, and
// nothing passes from one to the other. Without a latency callback JACK
// assumes every input feeds every output and would report the capture latency
// arriving at `in` on `out` (and the playback latency behind `out` on `in`),
// polluting latency figures of whatever is chained after or before us. Our own
// side must read 0..0, and it does without a call: jack2 makes every port with
// both ranges at 0..0 (JackPort::Allocate) and, for a client that has a
// latency callback, recomputes only the connected side of its ports
// (JackClient::HandleLatencyCallback). So the callback is there to stand in
// for the default and sets nothing. Setting 0..0 cost a period at each
// connect: jack2 makes jack_port_set_latency_range (and every port query)
// outside the process thread sleep 1.1 periods while a graph change is pending
// (JackAPI.cpp, WaitGraphChange), which is exactly when a jack_connect sends
// its latency callbacks, and the server waits for our answer before the
// connect returns: a start's first settled report came a period later
// (PortLatencyTests holds the 0..0).

static inline void tn_latency(jack_latency_callback_mode_t mode, void *arg) {
    (void)mode;
    (void)arg;
}

// MARK: - Installation (main thread, before jack_activate)

/// Names the calling thread for the kernel (`top -H`, /proc/…/task/TID/comm;
/// at most 15 bytes are kept). Returns 0 on success.
static inline int tn_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0);
}

/// Runs once in each thread libjack makes for the client, before its first
/// callback: jack2 calls it on the process thread and on the notification
/// threads alike. Names them, so tests and `top -H` find them (scripts/stress
/// reads the process thread's page faults from /proc/PID/task/TID/stat: the
/// one of that name scheduled most).
static inline void tn_thread_init(void *arg) {
    (void)arg;
    tn_name_this_thread("tonenode-jack");
}

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

/// The calling thread's kernel id (/proc/self/task/ID).
static inline int32_t tn_this_thread_id(void) { return (int32_t)syscall(SYS_gettid); }

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

// MARK: - Metadata (ToneJack's metadata helper process)

/// The client's own UUID (the metadata subject of its pretty name). Returns 0 on success.
static inline int tn_client_uuid(jack_client_t *client, jack_uuid_t *uuid) {
    char *uuid_text = jack_get_uuid_for_client_name(client, jack_get_client_name(client));
    if (uuid_text == NULL) return -1;
    int parsed = jack_uuid_parse(uuid_text, uuid);
    jack_free(uuid_text);
    return parsed;
}

/// Sets JACK_METADATA_PRETTY_NAME on one subject (the client or one of its
/// ports). Returns 0 on success. May block in jack2's Berkeley DB store:
/// Only ToneJack's MetadataHelper process calls it (see there why).
static inline int tn_set_pretty_name(jack_client_t *client, jack_uuid_t subject, const char *pretty) {
    return jack_set_property(client, subject, JACK_METADATA_PRETTY_NAME, pretty, "text/plain");
}

/// Removes exactly the JACK_METADATA_PRETTY_NAME key of one subject: a single
/// keyed delete, never `jack_remove_properties`' cursor walk, which deadlocks
/// in Berkeley DB when several clients walk at once. Returns 0 on success.
static inline int tn_remove_pretty_name(jack_client_t *client, jack_uuid_t subject) {
    return jack_remove_property(client, subject, JACK_METADATA_PRETTY_NAME);
}

// glibc 2.34+ (declared by <spawn.h> only under _GNU_SOURCE, which Swift's Glibc module is built without).
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
/// POSIX_SPAWN_SETSID, likewise GNU-only in <spawn.h>.
#define TN_SPAWN_SETSID 0x80
extern char **environ;

/// Starts ToneJack's metadata helper (`path` with `argv`, NULL-terminated):
/// `stdin_fd` and `stdout_fd` become its stdin and stdout, /dev/null its
/// stderr, and nothing else of ours is inherited (the JACK client's socket
/// above all: the server must see the node's socket close when the node
/// ends). In a session of its own, so a terminal's Ctrl-C is not for it, and
/// with SIGINT, SIGTERM, SIGHUP and SIGQUIT blocked: it looks at them only
/// between metadata calls, never dying inside one (a process that dies
/// waiting for a Berkeley DB lock leaves the request behind). posix_spawn,
/// not fork: the caller has threads. Returns 0 or an errno.
static inline int tn_spawn_metadata_helper(const char *path, char *const argv[], int stdin_fd, int stdout_fd,
                                           pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t blocked;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) { posix_spawn_file_actions_destroy(&actions); return result; }
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGINT);
    sigaddset(&blocked, SIGTERM);
    sigaddset(&blocked, SIGHUP);
    sigaddset(&blocked, SIGQUIT);
    if ((result = posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0)) == 0
        && (result = posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1)) == 0
        && (result = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)) == 0
        && (result = posix_spawn_file_actions_addclosefrom_np(&actions, 3)) == 0
        && (result = posix_spawnattr_setsigmask(&attributes, &blocked)) == 0
        && (result = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | TN_SPAWN_SETSID)) == 0) {
        result = posix_spawn(pid, path, &actions, &attributes, argv, environ);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}

/// Raises the nice value of the calling thread only (Linux: a thread is a
/// task with its own nice value). The analysis worker calls it so that, on a
/// server without real-time scheduling, it never competes with JACK's
/// process threads for a core. Returns 0 on success.
static inline int tn_renice_this_thread(int nice_value) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice_value);
}

/// `tn_renice_this_thread`, once per thread: a thread-local flag makes later
/// calls on the same thread return at once, so a task that may run on any
/// thread of a pool can call it for every event. Returns 0 on success or
/// when this thread was reniced before.
static inline int tn_renice_this_thread_once(int nice_value) {
    static _Thread_local int reniced = 0;
    if (reniced) return 0;
    reniced = 1;
    return tn_renice_this_thread(nice_value);
}

/// For a process whose JACK client is never activated (the metadata
/// helper): libjack locks the server's whole graph segment in every client
/// process (jack2 JackShmReadWritePtr::Init: 107 MB with jackd's default 2048
/// ports) and unlocks it at the close, kernel time that protects nothing when
/// no process thread ever reads the segment. After this call that lock fails
/// at once: RLIMIT_MEMLOCK's soft limit goes down to 1 MiB (libjack's small
/// locks still fit: its semaphores are mapped MAP_LOCKED, 12 bytes each) and
/// CAP_IPC_LOCK, which lets root lock past any limit, leaves the effective
/// set. libjack reports the refused lock through its error function only.
/// Returns 0 on success.
static inline int tn_forgo_large_memory_locks(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0) return -1;
    const rlim_t small = (rlim_t)1 << 20;
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > small) {
        limit.rlim_cur = small;
        if (setrlimit(RLIMIT_MEMLOCK, &limit) != 0) return -1;
    }
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &header, caps) != 0) return -1;
    if (!(caps[CAP_TO_INDEX(CAP_IPC_LOCK)].effective & CAP_TO_MASK(CAP_IPC_LOCK))) return 0;
    caps[CAP_TO_INDEX(CAP_IPC_LOCK)].effective &= ~CAP_TO_MASK(CAP_IPC_LOCK);
    return syscall(SYS_capset, &header, caps) == 0 ? 0 : -1;
}

/// Silences JACK's own error/info printing (ToneNode reports errors itself).
static inline void tn_quiet_jack(void (*err)(const char *), void (*info)(const char *)) {
    jack_set_error_function(err);
    jack_set_info_function(info);
}

#endif
