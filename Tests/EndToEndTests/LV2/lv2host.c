// A small LV2 host for the end-to-end tests (Tests/EndToEndTests/LV2): lilv
// finds the plugin (LV2_PATH), the worker runs at once inside schedule_work
// (as offline hosts run it) and its responses go back after each run().
//
//   lv2host URI FILE.wav [--seed N] [--max-block N] [--mode M] [--instances K] [--cycles C] [--no-worker]
//                        [--worker-never-runs] [--worker-stops-after FRAMES]
//   lv2host --generator URI OUT.wav [--seed N]
//
// Feeds FILE (channel 0) in blocks of seeded random sizes (1 … max-block,
// now and then one of 10 × max-block) and prints a line per changed reading
// of the first instance: "frames frequency level snr note cents sigma_hz sigma_cents valid".
// Exits 2 if an audio output differs from its input in any bit, 3 if two
// instances disagree, 4 if the plugin cannot be instantiated, 5 if it can
// be without the worker feature (with --no-worker: 0 when refused).
// --worker-never-runs: schedule_work accepts each job and never runs it (a host whose worker is stuck);
// --worker-stops-after FRAMES: the same once FRAMES frames have run.
//
// --generator: the generator plugin plays 1 s at 440 Hz, −12 dBFS, then its
// frequency is set to 880 Hz with a 50 ms glide for 1 s more, in seeded random
// blocks; writes OUT.wav (48 kHz float) and prints "maxstep D", the largest
// difference between two successive samples.
#include <lilv/lilv.h>
#include <math.h>
#include <lv2/worker/worker.h>
#include <sndfile.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INSTANCES 4
#define PORTS 19
#define RESPONSES 64
#define RESPONSE_BYTES 64

typedef struct {
    LilvInstance *instance;
    const LV2_Worker_Interface *worker;
    float controls[PORTS];
    unsigned char responses[RESPONSES][RESPONSE_BYTES];
    uint32_t response_sizes[RESPONSES];
    int response_count;
} Slot;

static uint64_t rng_state;
static uint64_t next_random(void) {   // splitmix64
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static LV2_Worker_Status respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    Slot *slot = handle;
    if (slot->response_count >= RESPONSES || size > RESPONSE_BYTES) return LV2_WORKER_ERR_NO_SPACE;
    memcpy(slot->responses[slot->response_count], data, size);
    slot->response_sizes[slot->response_count++] = size;
    return LV2_WORKER_SUCCESS;
}

static int worker_never_runs;
static long worker_stops_after = -1, frames_run;

static LV2_Worker_Status schedule_work(LV2_Worker_Schedule_Handle handle, uint32_t size, const void *data) {
    Slot *slot = handle;
    if (worker_never_runs || (worker_stops_after >= 0 && frames_run >= worker_stops_after)) return LV2_WORKER_SUCCESS;
    return slot->worker->work(lilv_instance_get_handle(slot->instance), respond, slot, size, data);
}

static void deliver(Slot *slot) {
    for (int i = 0; i < slot->response_count; ++i) {
        slot->worker->work_response(lilv_instance_get_handle(slot->instance), slot->response_sizes[i], slot->responses[i]);
    }
    slot->response_count = 0;
}

static int run_generator(const char *uri_text, const char *path, uint64_t seed) {
    const double rate = 48000;
    const long frames = 2 * (long)rate;
    LilvWorld *world = lilv_world_new();
    lilv_world_load_all(world);
    LilvNode *uri = lilv_new_uri(world, uri_text);
    const LilvPlugin *plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
    LilvInstance *instance = plugin ? lilv_plugin_instantiate(plugin, rate, NULL) : NULL;
    if (!instance) { fprintf(stderr, "lv2host: cannot instantiate %s\n", uri_text); return 4; }
    float controls[5] = { 0, 440, -12, 0, 0.05f };
    for (uint32_t p = 1; p < 5; ++p) lilv_instance_connect_port(instance, p, &controls[p]);
    float *audio = calloc((size_t)frames, sizeof(float));
    lilv_instance_activate(instance);
    rng_state = seed;
    for (long done = 0; done < frames;) {
        long block = 1 + (long)(next_random() % 2048);
        if (block > frames - done) block = frames - done;
        if (done >= frames / 2) controls[1] = 880;
        else if (done + block > frames / 2) block = frames / 2 - done;   // the change exactly at 1 s
        lilv_instance_connect_port(instance, 0, audio + done);
        lilv_instance_run(instance, (uint32_t)block);
        done += block;
    }
    double step = 0;
    for (long i = 1; i < frames; ++i) {
        double d = fabs((double)audio[i] - audio[i - 1]);
        if (d > step) step = d;
    }
    printf("maxstep %.9g\n", step);
    SF_INFO info = { .samplerate = (int)rate, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_FLOAT };
    SNDFILE *file = sf_open(path, SFM_WRITE, &info);
    if (!file) { fprintf(stderr, "lv2host: %s\n", sf_strerror(NULL)); return 73; }
    sf_writef_float(file, audio, frames);
    sf_close(file);
    lilv_instance_deactivate(instance);
    lilv_instance_free(instance);
    free(audio);
    lilv_node_free(uri);
    lilv_world_free(world);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 4 && !strcmp(argv[1], "--generator")) {
        return run_generator(argv[2], argv[3], argc >= 6 && !strcmp(argv[4], "--seed") ? strtoull(argv[5], NULL, 10) : 1);
    }
    if (argc < 3) { fprintf(stderr, "usage: lv2host URI FILE.wav [options]\n"); return 64; }
    const char *uri_text = argv[1], *path = argv[2];
    uint64_t seed = 1; long max_block = 4096; float mode = 0; int instances = 1, cycles = 1, no_worker = 0;
    for (int i = 3; i < argc; ++i) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--max-block") && i + 1 < argc) max_block = atol(argv[++i]);
        else if (!strcmp(argv[i], "--mode") && i + 1 < argc) mode = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--instances") && i + 1 < argc) instances = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) cycles = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-worker")) no_worker = 1;
        else if (!strcmp(argv[i], "--worker-never-runs")) worker_never_runs = 1;
        else if (!strcmp(argv[i], "--worker-stops-after") && i + 1 < argc) worker_stops_after = atol(argv[++i]);
        else { fprintf(stderr, "lv2host: unknown option %s\n", argv[i]); return 64; }
    }
    if (instances < 1 || instances > MAX_INSTANCES) return 64;

    SF_INFO info = {0};
    SNDFILE *file = sf_open(path, SFM_READ, &info);
    if (!file) { fprintf(stderr, "lv2host: %s\n", sf_strerror(NULL)); return 66; }
    float *interleaved = malloc(sizeof(float) * info.frames * info.channels);
    float *audio = malloc(sizeof(float) * (info.frames + 1));
    sf_readf_float(file, interleaved, info.frames);
    sf_close(file);
    for (sf_count_t i = 0; i < info.frames; ++i) audio[i] = interleaved[i * info.channels];
    free(interleaved);
    const double rate = info.samplerate;

    LilvWorld *world = lilv_world_new();
    lilv_world_load_all(world);
    LilvNode *uri = lilv_new_uri(world, uri_text);
    const LilvPlugin *plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
    if (!plugin) { fprintf(stderr, "lv2host: %s not found\n", uri_text); return 4; }
    if (lilv_plugin_get_num_ports(plugin) != PORTS) { fprintf(stderr, "lv2host: %s has not %d ports\n", uri_text, PORTS); return 4; }

    const long big = 10 * max_block;
    float *out = malloc(sizeof(float) * big);
    static Slot slots[MAX_INSTANCES];
    int status = 0;
    for (int cycle = 0; cycle < cycles && status == 0; ++cycle) {
        rng_state = seed + (uint64_t)cycle;
        for (int k = 0; k < instances; ++k) {
            Slot *slot = &slots[k];
            memset(slot, 0, sizeof *slot);
            LV2_Worker_Schedule schedule = { slot, schedule_work };
            LV2_Feature feature = { LV2_WORKER__schedule, &schedule };
            const LV2_Feature *features[] = { no_worker ? NULL : &feature, NULL };
            // The schedule struct must outlive the instance: keep it in static storage.
            static LV2_Worker_Schedule schedules[MAX_INSTANCES];
            schedules[k] = schedule;
            feature.data = &schedules[k];
            slot->instance = lilv_plugin_instantiate(plugin, rate, features);
            if (no_worker) {
                if (slot->instance) { fprintf(stderr, "lv2host: instantiated without the worker\n"); return 5; }
                return 0;
            }
            if (!slot->instance) { fprintf(stderr, "lv2host: instantiate failed\n"); return 4; }
            slot->worker = lilv_instance_get_extension_data(slot->instance, LV2_WORKER__interface);
            if (!slot->worker) { fprintf(stderr, "lv2host: no worker interface\n"); return 4; }
            // The bundle's defaults (the node's: LV2DeclarationTests), then the mode asked for.
            lilv_plugin_get_port_ranges_float(plugin, NULL, NULL, slot->controls);
            slot->controls[3] = mode;
            for (uint32_t p = 2; p < PORTS; ++p) lilv_instance_connect_port(slot->instance, p, &slot->controls[p]);
            lilv_instance_activate(slot->instance);
        }
        float last[PORTS] = {0};
        long done = 0;
        // A cycle after the first runs a second of the file (many instantiations stay quick).
        const long frames = cycle == 0 ? info.frames : (info.frames < (long)rate ? info.frames : (long)rate);
        while (done < frames && status == 0) {
            long block = 1 + (long)(next_random() % (uint64_t)max_block);
            if (next_random() % 64 == 0) block = big;
            if (block > frames - done) block = frames - done;
            for (int k = 0; k < instances; ++k) {
                Slot *slot = &slots[k];
                lilv_instance_connect_port(slot->instance, 0, audio + done);
                lilv_instance_connect_port(slot->instance, 1, out);
                lilv_instance_run(slot->instance, (uint32_t)block);
                deliver(slot);
                if (slot->worker->end_run) slot->worker->end_run(lilv_instance_get_handle(slot->instance));
                if (memcmp(out, audio + done, sizeof(float) * block) != 0) {
                    fprintf(stderr, "lv2host: output differs from input at frame %ld\n", done);
                    status = 2;
                }
                if (k > 0 && memcmp(slot->controls + 7, slots[0].controls + 7, sizeof(float) * 8) != 0) {
                    fprintf(stderr, "lv2host: instance %d disagrees at frame %ld\n", k, done);
                    status = 3;
                }
            }
            done += block;
            frames_run = done;
            if (cycle == 0 && memcmp(last + 7, slots[0].controls + 7, sizeof(float) * 8) != 0) {
                memcpy(last, slots[0].controls, sizeof last);
                const float *c = slots[0].controls;
                printf("%ld %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", done, c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
            }
        }
        for (int k = 0; k < instances; ++k) {
            lilv_instance_deactivate(slots[k].instance);
            lilv_instance_free(slots[k].instance);
        }
    }
    free(out);
    free(audio);
    lilv_node_free(uri);
    lilv_world_free(world);
    return status;
}
