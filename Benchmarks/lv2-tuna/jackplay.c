// Plays a mono WAV once on a JACK port `out`, connected to the ports given,
// then exits: the signal source of compare.py (no JACK file player is in
// Debian's base set).
//
//   cc -O2 -o jackplay jackplay.c $(pkg-config --cflags --libs jack sndfile)
//   JACK_DEFAULT_SERVER=NAME ./jackplay FILE.wav PORT...
#include <jack/jack.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static float *samples;
static long count;
static volatile long position;   // the process thread writes, main polls
static jack_port_t *port;

static int process(jack_nframes_t frames, void *arg) {
    (void)arg;
    float *out = jack_port_get_buffer(port, frames);
    for (jack_nframes_t i = 0; i < frames; ++i) out[i] = position < count ? samples[position++] : 0;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: jackplay FILE.wav PORT...\n"); return 64; }
    SF_INFO info = {0};
    SNDFILE *file = sf_open(argv[1], SFM_READ, &info);
    if (!file || info.channels != 1) { fprintf(stderr, "jackplay: need a mono file\n"); return 66; }
    samples = malloc(sizeof(float) * info.frames);
    count = sf_readf_float(file, samples, info.frames);
    sf_close(file);
    jack_client_t *client = jack_client_open("player", JackNoStartServer, NULL);
    if (!client) { fprintf(stderr, "jackplay: no JACK server\n"); return 69; }
    port = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    jack_set_process_callback(client, process, NULL);
    jack_activate(client);
    for (int i = 2; i < argc; ++i) jack_connect(client, jack_port_name(port), argv[i]);
    while (position < count) usleep(10000);
    jack_client_close(client);
    return 0;
}
