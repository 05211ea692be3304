// A loop relay: a second JACK client whose process callback copies each
// `in_k` to its `out_k`, so a node's own out → in loop can run through it.
//
// PipeWire's JACK carries no signal on a client's own out wired to its own
// in (silence; jack_iodelay on its own loop says "Signal below threshold"),
// but carries a cycle through a second client: our out → relay in, relay
// out → our in. jackd2 keeps the direct self-loop (ToneJack's LoopRelay is
// made only where the server is PipeWire).
#ifndef TONENODE_CJACK_LOOP_RELAY_H
#define TONENODE_CJACK_LOOP_RELAY_H

#include <jack/jack.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"   // TN_MAX_CHANNELS

/// The relay's ports, set before activation and read by its process
/// callback only (never changed while it runs).
typedef struct tn_loop_relay {
    jack_port_t *in_ports[TN_MAX_CHANNELS];
    jack_port_t *out_ports[TN_MAX_CHANNELS];
    uint32_t channels;
} tn_loop_relay;

/// Copies every `in` to its `out`. JACK thread: port buffers and memcpy only.
static inline int tn_loop_relay_process(jack_nframes_t nframes, void *arg) {
    const tn_loop_relay *r = (const tn_loop_relay *)arg;
    for (uint32_t i = 0; i < r->channels; i++) {
        const float *in = (const float *)jack_port_get_buffer(r->in_ports[i], nframes);
        float *out = (float *)jack_port_get_buffer(r->out_ports[i], nframes);
        if (in == NULL || out == NULL) continue;
        if (in != out) memcpy(out, in, (size_t)nframes * sizeof(float));
    }
    return 0;
}

static inline tn_loop_relay *tn_loop_relay_create(void) { return (tn_loop_relay *)calloc(1, sizeof(tn_loop_relay)); }
static inline void tn_loop_relay_destroy(tn_loop_relay *r) { free(r); }

/// Main thread, before activation. Returns 0, or -1 past the last channel.
static inline int tn_loop_relay_add_channel(tn_loop_relay *r, jack_port_t *in, jack_port_t *out) {
    if (r->channels >= TN_MAX_CHANNELS) return -1;
    r->in_ports[r->channels] = in;
    r->out_ports[r->channels] = out;
    r->channels++;
    return 0;
}

/// Main thread, before activation; `r` outlives the client's callbacks.
static inline int tn_loop_relay_install(jack_client_t *client, tn_loop_relay *r) {
    return jack_set_process_callback(client, tn_loop_relay_process, r);
}

#endif
