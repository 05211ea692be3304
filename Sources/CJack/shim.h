// The thin C layer on JACK's threads, between libjack and ToneNode's Swift.
//
// What must be C on the JACK threads is here, so that Swift's part of the
// real-time path, the render function, can be checked with @_noLocks. The
// process callback fetches the port buffers (every period, as JACK
// requires), copies the period's short MIDI messages in, calls the Swift
// render function, writes the MIDI messages it left to the MIDI output port,
// and counts the cycle. It wakes the thread waiting on the bridge (sem_post:
// async-signal-safe, never blocks) only as the bridge asks: once every
// `wake_every_frames` frames (measure and link), and once, at the first
// sound, while `sound_watch` is set. A node's worker keeps its own clock and
// gets no post per period (TN_NEVER_WAKE; docs/ARCHITECTURE.md, the real-time
// contract). The xrun and shutdown callbacks count and flag (shutdown posts
// too); the latency callback sets nothing; the thread-init callback names
// JACK's threads.
//
// The owner's side of the bridge (making it, installing these callbacks,
// reading the counters, waiting) is bridge.h. What runs on no JACK thread is
// in files named for what it does, each saying why it is C.
#ifndef TONENODE_CJACK_SHIM_H
#define TONENODE_CJACK_SHIM_H

#include <jack/jack.h>
#include <jack/types.h>
#include <jack/midiport.h>
#include <semaphore.h>
#include <stdint.h>

#include "callback_profile.h"
#include "calling_thread.h"

#define TN_MAX_CHANNELS 8
/// `wake_every_frames` value: the process callback never posts.
#define TN_NEVER_WAKE UINT32_MAX
// Longest period a bridge with a missing port runs (JACK periods are at most 8192 frames in practice).
#define TN_SCRATCH_FRAMES 16384

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
typedef void (*tn_render_fn)(void *engine, const float *const *inputs, float *const *outputs, uint32_t channels,
                             uint32_t nframes, const void *midi, uint32_t midi_count,
                             void *midi_out, uint32_t *midi_out_count);

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
    // Post once this many frames have arrived since the last post (0: every
    // cycle; TN_NEVER_WAKE: never). Set before activation. Each post to a
    // waiting thread is a futex syscall and a context switch inside the
    // period (ProcessBridge's `wakeEveryFrames` says who asks for what).
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
    // Count xruns without the xrun callback (set before installation; why:
    // ProcessBridge's `xrunsFromFrameTime`, jack2's JackEngine::CheckXRun):
    // tn_check_frame_time compares the cycle's frame time and the callback's
    // start with the last ones.
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

// MARK: - MIDI in and out (JACK thread)

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

// MARK: - Thread init (each of JACK's threads for the client, once)

/// Runs once in each thread libjack makes for the client, before its first
/// callback: jack2 calls it on the process thread and on the notification
/// threads alike. Names them, so tests and `top -H` find them (scripts/stress
/// reads the process thread's page faults from /proc/PID/task/TID/stat: the
/// one of that name scheduled most).
static inline void tn_thread_init(void *arg) {
    (void)arg;
    tn_name_this_thread("tonenode-jack");
}

#endif
