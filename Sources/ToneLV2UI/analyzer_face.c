// TNAnalyzerFace (analyzer_face.h): the values it holds, its history, its report.
#include "analyzer_face.h"
#include "face_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void tn_analyzer_face_init(TNAnalyzerFace *face, uint32_t spanPort) {
    memset(face, 0, sizeof *face);
    face->note = -1;
    face->a4Hz = 440;
    face->spanPort = spanPort;
    face->hasSpan = spanPort != UINT32_MAX;
    for (int index = 0; index < TN_HISTORY_COUNT; index++) face->history[index] = NAN;
}

/// Sets `*slot` to `value`; true when that changed it (a host repeats unchanged values).
static bool update(float *slot, float value) {
    if (*slot == value || (isnan(*slot) && isnan(value))) return false;
    *slot = value;
    return true;
}

static bool updateInteger(int *slot, float value) {
    int integer = isfinite(value) ? (int)lrintf(value) : -1;
    if (*slot == integer) return false;
    *slot = integer;
    return true;
}

bool tn_analyzer_face_port(TNAnalyzerFace *face, uint32_t index, float value) {
    if (face->hasSpan && index == face->spanPort) return update(&face->spanS, value);
    switch (index) {
    case TN_ANALYZER_MODE: return updateInteger(&face->mode, value);
    case TN_ANALYZER_A4: return update(&face->a4Hz, value);
    case TN_ANALYZER_FREQUENCY: return update(&face->frequencyHz, value);
    case TN_ANALYZER_LEVEL: return update(&face->levelDBFS, value);
    case TN_ANALYZER_SNR: return update(&face->snrDB, value);
    case TN_ANALYZER_NOTE: return updateInteger(&face->note, value);
    case TN_ANALYZER_CENTS: return update(&face->cents, value);
    case TN_ANALYZER_SIGMA_HZ: return update(&face->sigmaHz, value);
    case TN_ANALYZER_SIGMA_CENTS: return update(&face->sigmaCents, value);
    case TN_ANALYZER_VALID: {
        bool valid = value > 0.5f;
        if (face->valid == valid) return false;
        face->valid = valid;
        return true;
    }
    default: return false;
    }
}

bool tn_analyzer_face_tick(TNAnalyzerFace *face, double nowS) {
    if (nowS < face->nextSampleS) return false;
    // After a stall (the host did not call idle), start the period again rather than catch up.
    face->nextSampleS = nowS - face->nextSampleS > 1 ? nowS + TN_HISTORY_PERIOD_S : face->nextSampleS + TN_HISTORY_PERIOD_S;
    bool shown = face->valid && isfinite(face->frequencyHz) && face->frequencyHz > 0;
    face->history[face->historyNext] = shown ? face->frequencyHz : NAN;
    face->historyNext = (face->historyNext + 1) % TN_HISTORY_COUNT;
    return true;
}

void tn_analyzer_face_report(const TNAnalyzerFace *face, const char *path) {
    char text[512];
    snprintf(text, sizeof text,
             "width=%d\nheight=%d\ndraws=%lu\nvalid=%d\nnote=%s\ncents=%s\nfrequency=%s\nsigma=%s\nlevel=%s\nsnr=%s\nspan=%s\n",
             face->drawnWidthPx, face->drawnHeightPx, face->draws, face->valid ? 1 : 0, face->noteText, face->centsText,
             face->frequencyText, face->sigmaText, face->levelText, face->snrText, face->spanText);
    tn_face_report_write(path, text);
}
