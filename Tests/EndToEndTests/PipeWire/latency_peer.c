/* A JACK client for the PipeWire suite: delays `in` by DELAY whole frames
 * into `out` and, through a latency callback that follows JACK's header
 * (capture: the outputs get the inputs' range plus REPORTED; playback: the
 * inputs get the outputs' plus REPORTED), reports REPORTED frames.
 * Usage: latency_peer NAME DELAY REPORTED. Runs until stdin closes.
 * Built by the test with cc; run under pw-jack. */
#include <jack/jack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static jack_port_t *in_port, *out_port;
static float *line;
static size_t line_frames, position, delay_frames;
static jack_nframes_t reported_frames;

static int process(jack_nframes_t nframes, void *arg) {
    (void)arg;
    const float *in = jack_port_get_buffer(in_port, nframes);
    float *out = jack_port_get_buffer(out_port, nframes);
    for (jack_nframes_t i = 0; i < nframes; i++) {
        line[position] = in[i];
        out[i] = line[(position + line_frames - delay_frames) % line_frames];
        position = (position + 1) % line_frames;
    }
    return 0;
}

static void latency(jack_latency_callback_mode_t mode, void *arg) {
    (void)arg;
    jack_latency_range_t range;
    if (mode == JackCaptureLatency) {
        jack_port_get_latency_range(in_port, mode, &range);
        range.min += reported_frames;
        range.max += reported_frames;
        jack_port_set_latency_range(out_port, mode, &range);
    } else {
        jack_port_get_latency_range(out_port, mode, &range);
        range.min += reported_frames;
        range.max += reported_frames;
        jack_port_set_latency_range(in_port, mode, &range);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: latency_peer NAME DELAY REPORTED\n"); return 64; }
    delay_frames = (size_t)atol(argv[2]);
    reported_frames = (jack_nframes_t)atol(argv[3]);
    line_frames = delay_frames + 1;
    line = calloc(line_frames, sizeof *line);
    jack_client_t *client = jack_client_open(argv[1], JackNoStartServer, NULL);
    if (!client || !line) { fprintf(stderr, "latency_peer: cannot open the client\n"); return 1; }
    in_port = jack_port_register(client, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    out_port = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    if (!in_port || !out_port || jack_set_process_callback(client, process, NULL)
        || jack_set_latency_callback(client, latency, NULL) || jack_activate(client)) {
        fprintf(stderr, "latency_peer: cannot set up the client\n");
        return 1;
    }
    printf("ready %s\n", jack_get_client_name(client));
    fflush(stdout);
    char buffer[64];
    while (fgets(buffer, sizeof buffer, stdin)) {}
    jack_client_close(client);
    return 0;
}
