// jack_simple_client's render (a 200-sample sine table copied to two
// outputs) timed with the same callback profile as tonenode's
// --profile-callback (CJack's callback_profile.h: CLOCK_MONOTONIC at entry and exit, a
// histogram of 1 µs bins), so scripts/bench/live-bench compares the two callbacks
// measured alike. Prints the same summary line on SIGTERM/SIGINT.
//
// Build: cc -O2 -I Sources/CJack Benchmarks/callback-client/profiled_simple_client.c -ljack -lm
// Usage: profiled_simple_client [CLIENT_NAME [--report-active]]   (JACK_DEFAULT_SERVER picks the server)
// --report-active: print "active" on stdout once activated (scripts/bench/live-bench
// times exec to that line: JACK's own start-up, the floor under tonenode's).
#include "callback_profile.h"
#include <jack/jack.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define TABLE_SIZE 200

static jack_port_t *out1, *out2;
static float sine[TABLE_SIZE];
static int left_phase, right_phase;
static tn_callback_profile profile;
static volatile sig_atomic_t stop;

static int process(jack_nframes_t nframes, void *arg) {
    (void)arg;
    uint64_t start_ns = tn_monotonic_ns();
    float *a = (float *)jack_port_get_buffer(out1, nframes);
    float *b = (float *)jack_port_get_buffer(out2, nframes);
    for (jack_nframes_t i = 0; i < nframes; i++) {
        a[i] = sine[left_phase];
        b[i] = sine[right_phase];
        left_phase += 1;
        if (left_phase >= TABLE_SIZE) left_phase -= TABLE_SIZE;
        right_phase += 3;
        if (right_phase >= TABLE_SIZE) right_phase -= TABLE_SIZE;
    }
    tn_profile_record(&profile, start_ns);
    return 0;
}

static void on_signal(int sig) { (void)sig; stop = 1; }

static double quantile_us(double fraction) {
    uint64_t count = tn_profile_count(&profile), seen = 0;
    uint64_t rank = (uint64_t)ceil(fraction * (double)count);
    if (rank < 1) rank = 1;
    for (uint32_t i = 0; i < TN_PROFILE_BINS; i++) {
        seen += tn_profile_bin(&profile, i);
        if (seen >= rank) return i + 1;
    }
    return TN_PROFILE_BINS;
}

/// Callbacks of `from_us` µs or more (whole bins from that one on).
static uint64_t count_from_us(uint32_t from_us) {
    uint64_t n = 0;
    for (uint32_t i = from_us; i < TN_PROFILE_BINS; i++) n += tn_profile_bin(&profile, i);
    return n;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "profiled_simple_client";
    for (int i = 0; i < TABLE_SIZE; i++) sine[i] = 0.2f * (float)sin((double)i / TABLE_SIZE * M_PI * 2.0);
    jack_status_t status;
    jack_client_t *client = jack_client_open(name, JackNoStartServer, &status);
    if (client == NULL) { fprintf(stderr, "profiled_simple_client: no JACK server (status 0x%x)\n", status); return 1; }
    jack_set_process_callback(client, process, NULL);
    out1 = jack_port_register(client, "output1", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    out2 = jack_port_register(client, "output2", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    if (out1 == NULL || out2 == NULL || jack_activate(client) != 0) { fprintf(stderr, "profiled_simple_client: cannot start\n"); return 1; }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    if (argc > 2 && strcmp(argv[2], "--report-active") == 0) {
        printf("active\n");
        fflush(stdout);
    }
    while (!stop) usleep(100000);
    double period_us = (double)jack_get_buffer_size(client) / jack_get_sample_rate(client) * 1e6;
    uint64_t count = tn_profile_count(&profile);
    double mean_us = count ? (double)tn_profile_total_ns(&profile) / count / 1000 : 0;
    double worst_us = (double)tn_profile_worst_ns(&profile) / 1000;
    uint32_t budget_us = (uint32_t)ceil(period_us * 0.02);
    printf("callback: %llu periods of %.1f µs: mean %.1f µs (%.1f %%), p99 ≤ %.1f µs, worst %.1f µs (%.1f %%), "
           "%llu of %u µs (2 %%) or more\n",
           (unsigned long long)count, period_us, mean_us, mean_us / period_us * 100, quantile_us(0.99),
           worst_us, worst_us / period_us * 100, (unsigned long long)count_from_us(budget_us), budget_us);
    fflush(stdout);
    // After the summary: a close that hangs on a wedged server loses nothing.
    jack_client_close(client);
    return 0;
}
