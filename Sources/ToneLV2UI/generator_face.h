// TNGeneratorFace: the generator plugin's face. Frequency and level sliders
// and a mute button that write the plugin's control ports through the host
// (write_function), and show the values the host reports back. UI thread only.
#ifndef TN_GENERATOR_FACE_H
#define TN_GENERATOR_FACE_H

#include <stdbool.h>
#include <stdint.h>
#include <cairo/cairo.h>
#include "face_window.h"

/// The generator's port indices (Sources/ToneLV2/bundle/tonenode.ttl, GeneratorPlugin.Port).
enum { TN_GENERATOR_FREQUENCY = 1, TN_GENERATOR_LEVEL = 2, TN_GENERATOR_MUTE = 3 };

/// Writes one control port (the host's write_function with the float protocol).
typedef void (*TNPortWrite)(void *context, uint32_t index, float value);

typedef enum { TN_CONTROL_NONE, TN_CONTROL_FREQUENCY, TN_CONTROL_LEVEL, TN_CONTROL_MUTE } TNGeneratorControl;

typedef struct {
    float frequencyHz, levelDBFS;
    bool muted;
    TNGeneratorControl dragging;
    double widthPx, heightPx;   // of the last draw: where the controls are
    TNPortWrite write;
    void *writeContext;
    // What the last draw showed, as drawn (the test report).
    char frequencyText[32], levelText[32], noteText[32];
    unsigned long draws;
} TNGeneratorFace;

void tn_generator_face_init(TNGeneratorFace *face, TNPortWrite write, void *writeContext);

/// A control port's new value; true when the face must be drawn again.
bool tn_generator_face_port(TNGeneratorFace *face, uint32_t index, float value);

/// Pointer input on the window; true when the face must be drawn again.
bool tn_generator_face_pointer(TNGeneratorFace *face, TNPointerEvent event);

void tn_generator_face_draw(void *face, cairo_t *cr, double widthPx, double heightPx);

/// Writes what the last draw showed, and where its controls are, to `path`.
void tn_generator_face_report(const TNGeneratorFace *face, const char *path);

#endif
