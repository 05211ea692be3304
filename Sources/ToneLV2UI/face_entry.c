// The LV2 UI entry points: `lv2ui_descriptor`'s two X11 UIs, one per plugin
// (bundle/ui.ttl), over TNAnalyzerFace and TNGeneratorFace. The host's GUI
// thread calls every function here, one at a time (LV2 UI threading rules).
#include "ToneLV2UI.h"
#include "analyzer_face.h"
#include "face_report.h"
#include "face_window.h"
#include "generator_face.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TN_ANALYZER_UI "urn:tonenode:lv2:analyzer#face"
#define TN_GENERATOR_UI "urn:tonenode:lv2:generator#face"

typedef struct {
    bool isAnalyzer;
    TNFaceWindow window;
    LV2UI_Write_Function write;
    LV2UI_Controller controller;
    const LV2UI_Resize *hostResize;   // ui:resize from the host: tells it our size
    const char *reportPath;           // the tests' report (face_report.h), or NULL
    TNAnalyzerFace analyzer;
    TNGeneratorFace generator;
} TNFace;

static void writePort(void *context, uint32_t index, float value) {
    TNFace *face = context;
    face->write(face->controller, index, sizeof value, 0, &value);
}

static const void *feature(const LV2_Feature *const *features, const char *uri) {
    for (int index = 0; features && features[index]; index++)
        if (!strcmp(features[index]->URI, uri)) return features[index]->data;
    return NULL;
}

static LV2UI_Handle instantiate(const LV2UI_Descriptor *descriptor, const char *pluginURI, const char *bundlePath,
                                LV2UI_Write_Function write, LV2UI_Controller controller, LV2UI_Widget *widget,
                                const LV2_Feature *const *features) {
    (void)pluginURI;
    (void)bundlePath;
    TNFace *face = calloc(1, sizeof *face);
    if (!face) return NULL;
    face->isAnalyzer = !strcmp(descriptor->URI, TN_ANALYZER_UI);
    face->write = write;
    face->controller = controller;
    face->hostResize = feature(features, LV2_UI__resize);
    face->reportPath = tn_face_report_path();
    Window parent = (Window)(uintptr_t)feature(features, LV2_UI__parent);
    // The span port, where the plugin has one: found by symbol through the host's port map.
    const LV2UI_Port_Map *portMap = feature(features, LV2_UI__portMap);
    uint32_t spanPort = portMap ? portMap->port_index(portMap->handle, "span_s") : LV2UI_INVALID_PORT_INDEX;
    tn_analyzer_face_init(&face->analyzer, spanPort == LV2UI_INVALID_PORT_INDEX ? UINT32_MAX : spanPort);
    tn_generator_face_init(&face->generator, writePort, face);
    int width = face->isAnalyzer ? 480 : 420, height = face->isAnalyzer ? 320 : 220;
    bool opened = tn_face_window_open(&face->window, parent,
                                      face->isAnalyzer ? "ToneNode analyzer face" : "ToneNode generator face",
                                      width, height, width / 2, height / 2);
    if (!opened) {
        free(face);
        return NULL;
    }
    *widget = (LV2UI_Widget)(uintptr_t)face->window.window;
    if (face->hostResize) face->hostResize->ui_resize(face->hostResize->handle, width, height);
    return face;
}

static void cleanup(LV2UI_Handle handle) {
    TNFace *face = handle;
    tn_face_window_close(&face->window);
    free(face);
}

static void portEvent(LV2UI_Handle handle, uint32_t index, uint32_t size, uint32_t format, const void *buffer) {
    TNFace *face = handle;
    if (format != 0 || size != sizeof(float)) return;  // control ports only, float protocol
    float value;
    memcpy(&value, buffer, sizeof value);
    bool changed = face->isAnalyzer ? tn_analyzer_face_port(&face->analyzer, index, value)
                                    : tn_generator_face_port(&face->generator, index, value);
    if (changed) face->window.needsDraw = true;
}

static void onPointer(void *context, TNPointerEvent event) {
    TNFace *face = context;
    if (!face->isAnalyzer && tn_generator_face_pointer(&face->generator, event)) face->window.needsDraw = true;
}

static double nowSeconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + now.tv_nsec * 1e-9;
}

/// ui:idleInterface: the host's regular call; 0 while the face stays open.
static int idle(LV2UI_Handle handle) {
    TNFace *face = handle;
    tn_face_window_pump(&face->window, onPointer, face);
    if (face->window.closed) return 1;
    if (face->isAnalyzer && tn_analyzer_face_tick(&face->analyzer, nowSeconds())) face->window.needsDraw = true;
    if (face->window.needsDraw) {
        if (face->isAnalyzer) {
            tn_face_window_draw(&face->window, tn_analyzer_face_draw, &face->analyzer);
            if (face->reportPath) tn_analyzer_face_report(&face->analyzer, face->reportPath);
        } else {
            tn_face_window_draw(&face->window, tn_generator_face_draw, &face->generator);
            if (face->reportPath) tn_generator_face_report(&face->generator, face->reportPath);
        }
    }
    return 0;
}

/// ui:resize offered to the host: it sets the face's size.
static int resize(LV2UI_Feature_Handle handle, int widthPx, int heightPx) {
    TNFace *face = handle;
    tn_face_window_resize(&face->window, widthPx, heightPx);
    return 0;
}

static const LV2UI_Idle_Interface idleInterface = {idle};
static const LV2UI_Resize resizeInterface = {NULL, resize};

static const void *extensionData(const char *uri) {
    if (!strcmp(uri, LV2_UI__idleInterface)) return &idleInterface;
    if (!strcmp(uri, LV2_UI__resize)) return &resizeInterface;
    return NULL;
}

static const LV2UI_Descriptor descriptors[] = {
    {TN_ANALYZER_UI, instantiate, cleanup, portEvent, extensionData},
    {TN_GENERATOR_UI, instantiate, cleanup, portEvent, extensionData},
};

LV2_SYMBOL_EXPORT const LV2UI_Descriptor *lv2ui_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
