// The LV2 entry point: two descriptors whose functions are ToneLV2's
// `@_cdecl` Swift functions (declared here only, so that no Swift module sees
// them twice). The C side does what is plain C: the feature scan (a host
// without worker:schedule gets NULL, the worker is an lv2:requiredFeature)
// and the worker interface table.
#include <string.h>
#include "shim.h"

#define TN_LV2_ANALYZER_URI "urn:tonenode:lv2:analyzer"
#define TN_LV2_GENERATOR_URI "urn:tonenode:lv2:generator"

// ToneLV2 (Sources/ToneLV2/Entry.swift).
extern void *tn_lv2_analyzer_new(double rate, const LV2_Worker_Schedule *schedule);
extern void tn_lv2_analyzer_connect(void *plugin, uint32_t port, void *data);
extern void tn_lv2_analyzer_activate(void *plugin);
extern void tn_lv2_analyzer_run(void *plugin, uint32_t frames);
extern void tn_lv2_analyzer_free(void *plugin);
extern int tn_lv2_analyzer_work(void *plugin, LV2_Worker_Respond_Function respond,
                                LV2_Worker_Respond_Handle handle, uint32_t size, const void *data);
extern int tn_lv2_analyzer_work_response(void *plugin, uint32_t size, const void *data);
extern void *tn_lv2_generator_new(double rate);
extern void tn_lv2_generator_connect(void *plugin, uint32_t port, void *data);
extern void tn_lv2_generator_activate(void *plugin);
extern void tn_lv2_generator_run(void *plugin, uint32_t frames);
extern void tn_lv2_generator_free(void *plugin);

static LV2_Handle analyzer_instantiate(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                       const LV2_Feature *const *features) {
    (void)descriptor; (void)bundle;
    const LV2_Worker_Schedule *schedule = NULL;
    for (int i = 0; features && features[i]; ++i) {
        if (strcmp(features[i]->URI, LV2_WORKER__schedule) == 0) schedule = features[i]->data;
    }
    if (!schedule || !schedule->schedule_work) return NULL;
    return tn_lv2_analyzer_new(rate, schedule);
}

static void analyzer_connect(LV2_Handle plugin, uint32_t port, void *data) { tn_lv2_analyzer_connect(plugin, port, data); }
static void analyzer_activate(LV2_Handle plugin) { tn_lv2_analyzer_activate(plugin); }
static void analyzer_run(LV2_Handle plugin, uint32_t frames) { tn_lv2_analyzer_run(plugin, frames); }
static void analyzer_cleanup(LV2_Handle plugin) { tn_lv2_analyzer_free(plugin); }

static LV2_Worker_Status analyzer_work(LV2_Handle plugin, LV2_Worker_Respond_Function respond,
                                       LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    return (LV2_Worker_Status)tn_lv2_analyzer_work(plugin, respond, handle, size, data);
}

static LV2_Worker_Status analyzer_work_response(LV2_Handle plugin, uint32_t size, const void *body) {
    return (LV2_Worker_Status)tn_lv2_analyzer_work_response(plugin, size, body);
}

static const LV2_Worker_Interface analyzer_worker = { analyzer_work, analyzer_work_response, NULL };

static const void *analyzer_extension_data(const char *uri) {
    return strcmp(uri, LV2_WORKER__interface) == 0 ? &analyzer_worker : NULL;
}

static LV2_Handle generator_instantiate(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                        const LV2_Feature *const *features) {
    (void)descriptor; (void)bundle; (void)features;
    return tn_lv2_generator_new(rate);
}

static void generator_connect(LV2_Handle plugin, uint32_t port, void *data) { tn_lv2_generator_connect(plugin, port, data); }
static void generator_activate(LV2_Handle plugin) { tn_lv2_generator_activate(plugin); }
static void generator_run(LV2_Handle plugin, uint32_t frames) { tn_lv2_generator_run(plugin, frames); }
static void generator_cleanup(LV2_Handle plugin) { tn_lv2_generator_free(plugin); }
static const void *no_extension_data(const char *uri) { (void)uri; return NULL; }

static const LV2_Descriptor descriptors[] = {
    { TN_LV2_ANALYZER_URI, analyzer_instantiate, analyzer_connect, analyzer_activate, analyzer_run,
      NULL, analyzer_cleanup, analyzer_extension_data },
    { TN_LV2_GENERATOR_URI, generator_instantiate, generator_connect, generator_activate, generator_run,
      NULL, generator_cleanup, no_extension_data },
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
