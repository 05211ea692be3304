// An offline LV2 host for comparing analyzer plugins on the same file
// (LV2TunaTests and Benchmarks/lv2-tuna/offline.py: x42 tuna beside ToneNode): lilv
// finds the plugin (LV2_PATH), it gets urid:map (x42 tuna requires it) and
// the worker (ToneNode's analyzer requires it; `work` runs at once inside
// schedule_work, as offline hosts run it, its responses go back after each
// run()), and its control outputs are printed after every block.
//
//   cc -O2 -o lv2read lv2read.c $(pkg-config --cflags --libs lilv-0 sndfile)
//   LV2_PATH=… ./lv2read URI FILE.wav [--block N] [-c SYMBOL=VALUE]... OUT_SYMBOL...
//
// Prints "# cpu_s C audio_s A" first (the thread's CPU time inside run(),
// worker included, over the file), then one line per block: the frame count
// after the block and the named control outputs' values. Blocks are N frames
// (256, a JACK period, by default). Atom ports get an empty sequence (input)
// or room for 64 KiB (output); other control inputs their defaults.
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PORTS 64
#define MAX_URIS 512
#define RESPONSES 256
#define RESPONSE_BYTES 256
#define ATOM_BYTES 65536

static char *uris[MAX_URIS];
static int uri_count;

static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    for (int i = 0; i < uri_count; ++i) if (!strcmp(uris[i], uri)) return (LV2_URID)(i + 1);
    if (uri_count == MAX_URIS) return 0;
    uris[uri_count] = strdup(uri);
    return (LV2_URID)++uri_count;
}

static LilvInstance *instance;
static const LV2_Worker_Interface *worker;
static unsigned char responses[RESPONSES][RESPONSE_BYTES];
static uint32_t response_sizes[RESPONSES];
static int response_count;

static LV2_Worker_Status respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    (void)handle;
    if (response_count >= RESPONSES || size > RESPONSE_BYTES) return LV2_WORKER_ERR_NO_SPACE;
    memcpy(responses[response_count], data, size);
    response_sizes[response_count++] = size;
    return LV2_WORKER_SUCCESS;
}

static LV2_Worker_Status schedule_work(LV2_Worker_Schedule_Handle handle, uint32_t size, const void *data) {
    (void)handle;
    if (!worker) return LV2_WORKER_ERR_UNKNOWN;
    return worker->work(lilv_instance_get_handle(instance), respond, NULL, size, data);
}

static double thread_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: lv2read URI FILE.wav [--block N] [-c SYMBOL=VALUE]... OUT_SYMBOL...\n"); return 64; }
    const char *uri_text = argv[1], *path = argv[2];
    long block = 256;
    const char *settings[MAX_PORTS]; int setting_count = 0;
    const char *shown[MAX_PORTS]; int shown_count = 0;
    for (int i = 3; i < argc; ++i) {
        if (!strcmp(argv[i], "--block") && i + 1 < argc) block = atol(argv[++i]);
        else if (!strcmp(argv[i], "-c") && i + 1 < argc && setting_count < MAX_PORTS) settings[setting_count++] = argv[++i];
        else if (shown_count < MAX_PORTS) shown[shown_count++] = argv[i];
    }
    if (block < 1) return 64;

    SF_INFO info = {0};
    SNDFILE *file = sf_open(path, SFM_READ, &info);
    if (!file) { fprintf(stderr, "lv2read: %s\n", sf_strerror(NULL)); return 66; }
    float *interleaved = malloc(sizeof(float) * (size_t)(info.frames * info.channels));
    float *audio = malloc(sizeof(float) * (size_t)info.frames);
    sf_readf_float(file, interleaved, info.frames);
    sf_close(file);
    for (sf_count_t i = 0; i < info.frames; ++i) audio[i] = interleaved[i * info.channels];
    free(interleaved);

    LilvWorld *world = lilv_world_new();
    lilv_world_load_all(world);
    LilvNode *uri = lilv_new_uri(world, uri_text);
    const LilvPlugin *plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
    if (!plugin) { fprintf(stderr, "lv2read: %s not found\n", uri_text); return 4; }

    LV2_URID_Map map = { NULL, map_uri };
    LV2_Worker_Schedule schedule = { NULL, schedule_work };
    LV2_Feature map_feature = { LV2_URID__map, &map }, schedule_feature = { LV2_WORKER__schedule, &schedule };
    const LV2_Feature *features[] = { &map_feature, &schedule_feature, NULL };
    instance = lilv_plugin_instantiate(plugin, info.samplerate, features);
    if (!instance) { fprintf(stderr, "lv2read: cannot instantiate %s\n", uri_text); return 4; }
    worker = lilv_instance_get_extension_data(instance, LV2_WORKER__interface);

    uint32_t ports = lilv_plugin_get_num_ports(plugin);
    if (ports > MAX_PORTS) return 4;
    static float controls[MAX_PORTS];
    static LV2_Atom_Sequence *atoms[MAX_PORTS];
    float *out = calloc((size_t)block, sizeof(float));
    float *defaults = calloc(ports, sizeof(float));
    lilv_plugin_get_port_ranges_float(plugin, NULL, NULL, defaults);
    LilvNode *audio_class = lilv_new_uri(world, LV2_CORE__AudioPort), *control_class = lilv_new_uri(world, LV2_CORE__ControlPort);
    LilvNode *atom_class = lilv_new_uri(world, LV2_ATOM__AtomPort), *input_class = lilv_new_uri(world, LV2_CORE__InputPort);
    int audio_in = -1, shown_ports[MAX_PORTS];
    for (int s = 0; s < shown_count; ++s) shown_ports[s] = -1;
    LV2_URID sequence = map_uri(NULL, LV2_ATOM__Sequence), chunk = map_uri(NULL, LV2_ATOM__Chunk);
    for (uint32_t p = 0; p < ports; ++p) {
        const LilvPort *port = lilv_plugin_get_port_by_index(plugin, p);
        const char *symbol = lilv_node_as_string(lilv_port_get_symbol(plugin, port));
        int input = lilv_port_is_a(plugin, port, input_class);
        if (lilv_port_is_a(plugin, port, audio_class)) {
            if (input && audio_in < 0) audio_in = (int)p;
            else if (!input) lilv_instance_connect_port(instance, p, out);
        } else if (lilv_port_is_a(plugin, port, control_class)) {
            controls[p] = defaults[p] == defaults[p] ? defaults[p] : 0;
            for (int s = 0; s < setting_count; ++s) {
                size_t length = strlen(symbol);
                if (!strncmp(settings[s], symbol, length) && settings[s][length] == '=') controls[p] = (float)atof(settings[s] + length + 1);
            }
            for (int s = 0; s < shown_count; ++s) if (!strcmp(shown[s], symbol)) shown_ports[s] = (int)p;
            lilv_instance_connect_port(instance, p, &controls[p]);
        } else if (lilv_port_is_a(plugin, port, atom_class)) {
            atoms[p] = calloc(1, ATOM_BYTES);
            lilv_instance_connect_port(instance, p, atoms[p]);
            atoms[p]->atom.type = input ? sequence : chunk;
            atoms[p]->atom.size = input ? sizeof(LV2_Atom_Sequence_Body) : ATOM_BYTES - sizeof(LV2_Atom);
        }
    }
    for (int s = 0; s < shown_count; ++s) {
        if (shown_ports[s] < 0) { fprintf(stderr, "lv2read: %s has no port %s\n", uri_text, shown[s]); return 64; }
    }
    if (audio_in < 0) { fprintf(stderr, "lv2read: %s has no audio input\n", uri_text); return 4; }

    lilv_instance_activate(instance);
    double cpu = 0;
    char *text = malloc((size_t)(info.frames / block + 1) * (size_t)(24 + 24 * shown_count));
    size_t used = 0;
    for (long done = 0; done < info.frames;) {
        long frames = info.frames - done < block ? info.frames - done : block;
        for (uint32_t p = 0; p < ports; ++p) {
            if (!atoms[p]) continue;
            int input = lilv_port_is_a(plugin, lilv_plugin_get_port_by_index(plugin, p), input_class);
            atoms[p]->atom.type = input ? sequence : chunk;
            atoms[p]->atom.size = input ? sizeof(LV2_Atom_Sequence_Body) : ATOM_BYTES - sizeof(LV2_Atom);
        }
        lilv_instance_connect_port(instance, (uint32_t)audio_in, audio + done);
        double start = thread_seconds();
        lilv_instance_run(instance, (uint32_t)frames);
        for (int i = 0; i < response_count; ++i) worker->work_response(lilv_instance_get_handle(instance), response_sizes[i], responses[i]);
        response_count = 0;
        if (worker && worker->end_run) worker->end_run(lilv_instance_get_handle(instance));
        cpu += thread_seconds() - start;
        done += frames;
        used += (size_t)sprintf(text + used, "%ld", done);
        for (int s = 0; s < shown_count; ++s) used += (size_t)sprintf(text + used, " %.9g", controls[shown_ports[s]]);
        text[used++] = '\n';
    }
    printf("# cpu_s %.6f audio_s %.6f\n", cpu, (double)info.frames / info.samplerate);
    fwrite(text, 1, used, stdout);
    lilv_instance_deactivate(instance);
    lilv_instance_free(instance);
    for (uint32_t p = 0; p < ports; ++p) free(atoms[p]);
    for (int i = 0; i < uri_count; ++i) free(uris[i]);
    free(text); free(defaults); free(out); free(audio);
    lilv_node_free(audio_class); lilv_node_free(control_class); lilv_node_free(atom_class); lilv_node_free(input_class);
    lilv_node_free(uri);
    lilv_world_free(world);
    return 0;
}
