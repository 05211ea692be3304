// TNGeneratorFace (generator_face.h): its controls, their input and drawing.
#include "generator_face.h"
#include "face_draw.h"
#include "face_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// The ports' ranges and defaults (tonenode.ttl); the slider spans the audible
// part of the frequency range, a typed or automated value beyond it still shows.
static const double sliderLowHz = 10, sliderHighHz = 24000, portLowHz = 1, portHighHz = 96000;
static const double levelLowDB = -120, levelHighDB = 0, defaultHz = 1000, defaultDB = -18;

typedef struct { double x, y, width, height; } TNRect;

typedef struct { TNRect frequency, level, mute; double scale; } TNGeneratorLayout;

static TNGeneratorLayout layout(double widthPx, double heightPx) {
    double scale = fmax(0.5, fmin(widthPx / 420, heightPx / 220));
    double margin = 10 * scale, sliderHeight = 24 * scale;
    TNGeneratorLayout result = {.scale = scale};
    result.frequency = (TNRect){margin, heightPx * 0.36, widthPx - 2 * margin, sliderHeight};
    double muteWidth = 70 * scale;
    result.level = (TNRect){margin, heightPx * 0.78, widthPx - 3 * margin - muteWidth, sliderHeight};
    result.mute = (TNRect){widthPx - margin - muteWidth, heightPx * 0.78, muteWidth, sliderHeight};
    return result;
}

static bool inside(TNRect rect, double x, double y) {
    return x >= rect.x && x <= rect.x + rect.width && y >= rect.y - 6 && y <= rect.y + rect.height + 6;
}

static double fraction(TNRect rect, double x) { return fmax(0, fmin(1, (x - rect.x) / rect.width)); }

void tn_generator_face_init(TNGeneratorFace *face, TNPortWrite write, void *writeContext) {
    memset(face, 0, sizeof *face);
    face->frequencyHz = (float)defaultHz;
    face->levelDBFS = (float)defaultDB;
    face->write = write;
    face->writeContext = writeContext;
}

bool tn_generator_face_port(TNGeneratorFace *face, uint32_t index, float value) {
    switch (index) {
    case TN_GENERATOR_FREQUENCY: face->frequencyHz = value; return true;
    case TN_GENERATOR_LEVEL: face->levelDBFS = value; return true;
    case TN_GENERATOR_MUTE: face->muted = value > 0.5f; return true;
    default: return false;
    }
}

static void setFrequency(TNGeneratorFace *face, double hz) {
    face->frequencyHz = (float)fmax(portLowHz, fmin(portHighHz, hz));
    face->write(face->writeContext, TN_GENERATOR_FREQUENCY, face->frequencyHz);
}

static void setLevel(TNGeneratorFace *face, double dB) {
    face->levelDBFS = (float)fmax(levelLowDB, fmin(levelHighDB, dB));
    face->write(face->writeContext, TN_GENERATOR_LEVEL, face->levelDBFS);
}

/// A press or drag at `x` on a slider sets its value there (log for frequency).
static void slide(TNGeneratorFace *face, TNGeneratorLayout controls, TNGeneratorControl control, double x) {
    if (control == TN_CONTROL_FREQUENCY)
        setFrequency(face, sliderLowHz * pow(sliderHighHz / sliderLowHz, fraction(controls.frequency, x)));
    else if (control == TN_CONTROL_LEVEL)
        setLevel(face, levelLowDB + (levelHighDB - levelLowDB) * fraction(controls.level, x));
}

bool tn_generator_face_pointer(TNGeneratorFace *face, TNPointerEvent event) {
    TNGeneratorLayout controls = layout(face->widthPx, face->heightPx);
    TNGeneratorControl under = inside(controls.frequency, event.xPx, event.yPx) ? TN_CONTROL_FREQUENCY
        : inside(controls.level, event.xPx, event.yPx) ? TN_CONTROL_LEVEL
        : inside(controls.mute, event.xPx, event.yPx) ? TN_CONTROL_MUTE : TN_CONTROL_NONE;
    switch (event.kind) {
    case TN_POINTER_PRESS:
        if (under == TN_CONTROL_MUTE) {
            face->muted = !face->muted;
            face->write(face->writeContext, TN_GENERATOR_MUTE, face->muted ? 1 : 0);
            return true;
        }
        if (event.isDouble && under == TN_CONTROL_FREQUENCY) { setFrequency(face, defaultHz); return true; }
        if (event.isDouble && under == TN_CONTROL_LEVEL) { setLevel(face, defaultDB); return true; }
        face->dragging = under;
        slide(face, controls, under, event.xPx);
        return under != TN_CONTROL_NONE;
    case TN_POINTER_DRAG:
        slide(face, controls, face->dragging, event.xPx);
        return face->dragging != TN_CONTROL_NONE;
    case TN_POINTER_RELEASE:
        face->dragging = TN_CONTROL_NONE;
        return false;
    case TN_POINTER_WHEEL_UP:
    case TN_POINTER_WHEEL_DOWN: {
        double direction = event.kind == TN_POINTER_WHEEL_UP ? 1 : -1;
        // Frequency: a semitone a notch, a cent with Shift or Control; level: 1 dB, or 0.1 dB.
        if (under == TN_CONTROL_FREQUENCY)
            setFrequency(face, face->frequencyHz * pow(2, direction * (event.fine ? 1 : 100) / 1200.0));
        else if (under == TN_CONTROL_LEVEL)
            setLevel(face, face->levelDBFS + direction * (event.fine ? 0.1 : 1));
        return under == TN_CONTROL_FREQUENCY || under == TN_CONTROL_LEVEL;
    }
    }
    return false;
}

static void slider(cairo_t *cr, TNRect rect, double position, TNColor color, double scale) {
    tn_panel_rect(cr, rect.x, rect.y, rect.width, rect.height);
    double filled = rect.width * fmax(0, fmin(1, position));
    tn_set_color(cr, color, 0.35);
    cairo_rectangle(cr, rect.x, rect.y, filled, rect.height);
    cairo_fill(cr);
    tn_set_color(cr, color, 1);
    cairo_rectangle(cr, rect.x + filled - 2 * scale, rect.y - 3 * scale, 4 * scale, rect.height + 6 * scale);
    cairo_fill(cr);
}

void tn_generator_face_draw(void *context, cairo_t *cr, double widthPx, double heightPx) {
    TNGeneratorFace *face = context;
    face->widthPx = widthPx;
    face->heightPx = heightPx;
    face->draws++;
    TNGeneratorLayout controls = layout(widthPx, heightPx);
    double scale = controls.scale, margin = 10 * scale;
    tn_set_color(cr, tn_background, 1);
    cairo_paint(cr);
    snprintf(face->frequencyText, sizeof face->frequencyText, "%.2f", face->frequencyHz);
    snprintf(face->levelText, sizeof face->levelText, "%.1f", face->levelDBFS);
    // The nearest note at A4 = 440 Hz, for tuning against it.
    double midi = 69 + 12 * log2(face->frequencyHz / 440.0);
    int note = (int)lrint(midi);
    char name[16];
    tn_note_name(note, name, sizeof name);
    double cents = (midi - note) * 100;
    snprintf(face->noteText, sizeof face->noteText, "%s %+.1f ¢", name, fabs(cents) < 0.05 ? 0.0 : cents);
    char line[512];
    TNColor shown = face->muted ? tn_dim : tn_foreground;
    snprintf(line, sizeof line, "%s Hz", face->frequencyText);
    tn_text(cr, line, margin, controls.frequency.y - 12 * scale, 30 * scale, 1, 0, shown);
    tn_text(cr, face->noteText, widthPx - margin, controls.frequency.y - 12 * scale, 15 * scale, 0, 1, tn_dim);
    double position = log(fmax(sliderLowHz, face->frequencyHz) / sliderLowHz) / log(sliderHighHz / sliderLowHz);
    slider(cr, controls.frequency, position, tn_accent, scale);
    snprintf(line, sizeof line, "%s dBFS", face->levelText);
    tn_text(cr, line, margin, controls.level.y - 12 * scale, 22 * scale, 1, 0, shown);
    slider(cr, controls.level, (face->levelDBFS - levelLowDB) / (levelHighDB - levelLowDB), tn_good, scale);
    tn_panel_rect(cr, controls.mute.x, controls.mute.y, controls.mute.width, controls.mute.height);
    if (face->muted) {
        tn_set_color(cr, tn_warn, 0.8);
        cairo_rectangle(cr, controls.mute.x, controls.mute.y, controls.mute.width, controls.mute.height);
        cairo_fill(cr);
    }
    tn_text(cr, "mute", controls.mute.x + controls.mute.width / 2, controls.mute.y + controls.mute.height * 0.68,
            13 * scale, 1, 0.5, face->muted ? tn_foreground : tn_dim);
    tn_text(cr, "ToneNode generator — drag, wheel (Shift: fine), double-click: default", margin, heightPx - 4 * scale,
            9.5 * scale, 0, 0, tn_dim);
}

void tn_generator_face_report(const TNGeneratorFace *face, const char *path) {
    TNGeneratorLayout controls = layout(face->widthPx, face->heightPx);
    char text[512];
    snprintf(text, sizeof text,
             "width=%d\nheight=%d\ndraws=%lu\nfrequency=%s\nlevel=%s\nmuted=%d\nnote=%s\n"
             "frequency_slider=%d %d %d %d\nlevel_slider=%d %d %d %d\nmute_button=%d %d %d %d\n",
             (int)face->widthPx, (int)face->heightPx, face->draws, face->frequencyText, face->levelText,
             face->muted ? 1 : 0, face->noteText, (int)controls.frequency.x, (int)controls.frequency.y,
             (int)controls.frequency.width, (int)controls.frequency.height, (int)controls.level.x,
             (int)controls.level.y, (int)controls.level.width, (int)controls.level.height, (int)controls.mute.x,
             (int)controls.mute.y, (int)controls.mute.width, (int)controls.mute.height);
    tn_face_report_write(path, text);
}
