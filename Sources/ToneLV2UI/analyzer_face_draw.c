// TNAnalyzerFace's drawing (analyzer_face.h): the note, a cents needle with
// its σ band, the frequency with σ, level, SNR, the integration span, and the
// frequency's history in cents of the note shown.
#include "analyzer_face.h"
#include "face_draw.h"

#include <math.h>
#include <stdio.h>

/// Whether the ports hold a reading to show.
static bool showsReading(const TNAnalyzerFace *face) {
    return face->valid && isfinite(face->frequencyHz) && face->frequencyHz > 0;
}

/// Whether the plugin reports an integration span (a `span_s` port with a value).
static bool showsSpan(const TNAnalyzerFace *face) { return face->hasSpan && isfinite(face->spanS) && face->spanS > 0; }

/// The texts the face shows, kept on the face for the report.
static void spell(TNAnalyzerFace *face) {
    bool shown = showsReading(face);
    if (!shown) {
        snprintf(face->noteText, sizeof face->noteText, "—");
        snprintf(face->centsText, sizeof face->centsText, "—");
        snprintf(face->frequencyText, sizeof face->frequencyText, "—");
        snprintf(face->sigmaText, sizeof face->sigmaText, "—");
        snprintf(face->levelText, sizeof face->levelText, "—");
        snprintf(face->snrText, sizeof face->snrText, "—");
    } else {
        tn_note_name(face->note, face->noteText, sizeof face->noteText);
        snprintf(face->centsText, sizeof face->centsText, "%+.*f", tn_decimals_for(face->sigmaCents, 1, 3), face->cents);
        int decimals = tn_decimals_for(face->sigmaHz, 1, 5);
        snprintf(face->frequencyText, sizeof face->frequencyText, "%.*f", decimals, face->frequencyHz);
        snprintf(face->sigmaText, sizeof face->sigmaText, "%.2g", face->sigmaHz);
        snprintf(face->levelText, sizeof face->levelText, "%.1f", face->levelDBFS);
        snprintf(face->snrText, sizeof face->snrText, "%.1f", face->snrDB);
    }
    if (showsSpan(face))
        snprintf(face->spanText, sizeof face->spanText, "%.*f", face->spanS < 1 ? 3 : 2, face->spanS);
    else
        snprintf(face->spanText, sizeof face->spanText, "—");
}

/// The ±50-cent needle: ticks every 10 cents, σ as a band around the needle.
static void gauge(const TNAnalyzerFace *face, cairo_t *cr, double x, double y, double width, double height, double scale) {
    tn_panel_rect(cr, x, y, width, height);
    double radius = fmin(width / 2 - 12 * scale, height - 26 * scale);
    if (radius < 10) return;
    double cx = x + width / 2, cy = y + height - 12 * scale;
    double spread = M_PI / 3;  // ±50 cents is ±60°
    #define ANGLE(c) (-M_PI / 2 + (c) / 50.0 * spread)
    cairo_set_line_width(cr, 1.5 * scale);
    for (int c = -50; c <= 50; c += 10) {
        double angle = ANGLE(c), inner = radius * (c == 0 ? 0.78 : 0.86);
        tn_set_color(cr, c == 0 ? tn_good : tn_dim, 1);
        cairo_move_to(cr, cx + inner * cos(angle), cy + inner * sin(angle));
        cairo_line_to(cr, cx + radius * cos(angle), cy + radius * sin(angle));
        cairo_stroke(cr);
    }
    char label[8];
    for (int c = -50; c <= 50; c += 25) {
        if (c == 0) continue;  // the green tick is zero; a label there would sit under the needle
        snprintf(label, sizeof label, "%+d", c);
        double angle = ANGLE(c);
        tn_text(cr, label, cx + radius * 0.68 * cos(angle), cy + radius * 0.68 * sin(angle) + 4 * scale, 10 * scale, 0,
                0.5, tn_dim);
    }
    if (!showsReading(face) || !isfinite(face->cents)) {
        tn_text(cr, "no tone", cx, cy - radius * 0.25, 13 * scale, 0, 0.5, tn_dim);
        return;
    }
    double cents = fmax(-50, fmin(50, face->cents));
    double sigma = fmin(50, isfinite(face->sigmaCents) ? face->sigmaCents : 0);
    if (sigma > 0.05) {  // the band where the true pitch lies (±σ)
        tn_set_color(cr, tn_accent, 0.25);
        cairo_move_to(cr, cx, cy);
        cairo_arc(cr, cx, cy, radius * 0.95, ANGLE(fmax(-50, cents - sigma)), ANGLE(fmin(50, cents + sigma)));
        cairo_close_path(cr);
        cairo_fill(cr);
    }
    double angle = ANGLE(cents);
    tn_set_color(cr, fabs(face->cents) <= 2 ? tn_good : tn_accent, 1);
    cairo_set_line_width(cr, 3 * scale);
    cairo_move_to(cr, cx, cy);
    cairo_line_to(cr, cx + radius * 0.95 * cos(angle), cy + radius * 0.95 * sin(angle));
    cairo_stroke(cr);
    cairo_arc(cr, cx, cy, 5 * scale, 0, 2 * M_PI);
    cairo_fill(cr);
    #undef ANGLE
}

/// The last 12 s of frequency, in cents of the note shown, on a scale that fits them.
static void history(const TNAnalyzerFace *face, cairo_t *cr, double x, double y, double width, double height, double scale) {
    tn_panel_rect(cr, x, y, width, height);
    if (!showsReading(face) || face->note < 0 || face->a4Hz <= 0) {
        tn_text(cr, "history: no tone", x + 8 * scale, y + 14 * scale, 10 * scale, 0, 0, tn_dim);
        return;
    }
    double noteHz = face->a4Hz * pow(2, (face->note - 69) / 12.0);
    double worst = 0;
    for (int index = 0; index < TN_HISTORY_COUNT; index++) {
        double hz = face->history[index];
        if (isfinite(hz) && hz > 0) worst = fmax(worst, fabs(1200 * log2(hz / noteHz)));
    }
    static const double ranges[] = {1, 2, 5, 10, 25, 50};
    double range = 50;
    for (int index = 0; index < 6; index++) if (worst <= ranges[index]) { range = ranges[index]; break; }
    double top = y + 18 * scale, bottom = y + height - 6 * scale, middle = (top + bottom) / 2;
    char label[64], note[16];
    tn_note_name(face->note, note, sizeof note);
    snprintf(label, sizeof label, "last 12 s, cents of %s (±%g)", note, range);
    tn_text(cr, label, x + 8 * scale, y + 13 * scale, 10 * scale, 0, 0, tn_dim);
    tn_set_color(cr, tn_good, 0.5);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, x + 6 * scale, middle);
    cairo_line_to(cr, x + width - 6 * scale, middle);
    cairo_stroke(cr);
    tn_set_color(cr, tn_accent, 1);
    cairo_set_line_width(cr, 1.5 * scale);
    bool drawing = false;
    for (int step = 0; step < TN_HISTORY_COUNT; step++) {
        double hz = face->history[(face->historyNext + step) % TN_HISTORY_COUNT];
        double px = x + 6 * scale + (width - 12 * scale) * step / (TN_HISTORY_COUNT - 1);
        if (!(isfinite(hz) && hz > 0)) { drawing = false; continue; }
        double cents = fmax(-range, fmin(range, 1200 * log2(hz / noteHz)));
        double py = middle - (bottom - top) / 2 * cents / range;
        if (drawing) cairo_line_to(cr, px, py); else cairo_move_to(cr, px, py);
        drawing = true;
    }
    cairo_stroke(cr);
}

void tn_analyzer_face_draw(void *context, cairo_t *cr, double widthPx, double heightPx) {
    TNAnalyzerFace *face = context;
    spell(face);
    face->drawnWidthPx = (int)widthPx;
    face->drawnHeightPx = (int)heightPx;
    face->draws++;
    double scale = fmax(0.5, fmin(widthPx / 480, heightPx / 320));
    double margin = 8 * scale;
    tn_set_color(cr, tn_background, 1);
    cairo_paint(cr);
    bool shown = showsReading(face);
    // The note and its cents, left; the needle, right.
    double topHeight = heightPx * 0.5 - margin;
    double noteWidth = widthPx * 0.36;
    tn_panel_rect(cr, margin, margin, noteWidth - margin, topHeight);
    tn_text(cr, face->noteText, margin + (noteWidth - margin) / 2, margin + topHeight * 0.62, 54 * scale, 1, 0.5,
            shown ? tn_foreground : tn_dim);
    char line[512];
    snprintf(line, sizeof line, "%s ¢", face->centsText);
    tn_text(cr, line, margin + (noteWidth - margin) / 2, margin + topHeight * 0.88, 15 * scale, 0, 0.5, tn_dim);
    gauge(face, cr, noteWidth + margin, margin, widthPx - noteWidth - 2 * margin, topHeight, scale);
    // The frequency and its σ; level, SNR, span.
    double rowY = heightPx * 0.5 + 26 * scale;
    snprintf(line, sizeof line, shown ? "%s Hz" : "%s", face->frequencyText);
    tn_text(cr, line, margin, rowY, 26 * scale, 1, 0, shown ? tn_foreground : tn_dim);
    snprintf(line, sizeof line, shown ? "σ %s Hz" : "σ %s", face->sigmaText);
    tn_text(cr, line, widthPx - margin, rowY, 14 * scale, 0, 1, tn_dim);
    snprintf(line, sizeof line, "level %s dBFS   SNR %s dB   span %s%s   %s  A4 %.1f Hz", face->levelText,
             face->snrText, face->spanText, showsSpan(face) ? " s" : "", face->mode == 1 ? "pitch" : "tone",
             face->a4Hz);
    tn_text(cr, line, margin, rowY + 20 * scale, 11.5 * scale, 0, 0, tn_dim);
    double historyY = rowY + 30 * scale;
    if (heightPx - margin - historyY > 24 * scale)
        history(face, cr, margin, historyY, widthPx - 2 * margin, heightPx - margin - historyY, scale);
}
