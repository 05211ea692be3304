// TNAnalyzerFace: the analyzer plugin's face. It keeps the last value of each
// control port the host reported (port_event), a short history of the
// frequency sampled from them, and draws them; it computes no reading of its
// own. UI thread only.
#ifndef TN_ANALYZER_FACE_H
#define TN_ANALYZER_FACE_H

#include <stdbool.h>
#include <stdint.h>
#include <cairo/cairo.h>

/// The analyzer's port indices (Sources/ToneLV2/bundle/tonenode.ttl, AnalyzerPort).
enum {
    TN_ANALYZER_MODE = 3, TN_ANALYZER_A4 = 4, TN_ANALYZER_FREQUENCY = 7, TN_ANALYZER_LEVEL = 8, TN_ANALYZER_SNR = 9,
    TN_ANALYZER_NOTE = 10, TN_ANALYZER_CENTS = 11, TN_ANALYZER_SIGMA_HZ = 12, TN_ANALYZER_SIGMA_CENTS = 13,
    TN_ANALYZER_VALID = 14,
};

#define TN_HISTORY_COUNT 120      // readings kept for the history strip
#define TN_HISTORY_PERIOD_S 0.1   // one every 0.1 s: the last 12 s

typedef struct {
    float frequencyHz, levelDBFS, snrDB, cents, sigmaHz, sigmaCents, a4Hz, spanS;
    int note, mode;
    bool valid;
    bool hasSpan;              // the plugin has a `span_s` port (the host's port map found it)
    uint32_t spanPort;
    float history[TN_HISTORY_COUNT];   // frequency in Hz, NaN where there was no reading
    int historyNext;
    double nextSampleS;
    // What the last draw showed, as drawn (the test report).
    char noteText[16], centsText[24], frequencyText[32], sigmaText[32], levelText[32], snrText[32], spanText[32];
    int drawnWidthPx, drawnHeightPx;
    unsigned long draws;
} TNAnalyzerFace;

void tn_analyzer_face_init(TNAnalyzerFace *face, uint32_t spanPort);

/// A control port's new value; true when the face must be drawn again.
bool tn_analyzer_face_port(TNAnalyzerFace *face, uint32_t index, float value);

/// Samples the history when its period has passed; true when it did (a draw is due).
bool tn_analyzer_face_tick(TNAnalyzerFace *face, double nowS);

/// Draws the whole face (cairo callback of tn_face_window_draw).
void tn_analyzer_face_draw(void *face, cairo_t *cr, double widthPx, double heightPx);

/// Writes what the last draw showed to `path` (key=value lines), replaced whole.
void tn_analyzer_face_report(const TNAnalyzerFace *face, const char *path);

#endif
