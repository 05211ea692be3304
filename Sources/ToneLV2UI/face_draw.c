// Drawing helpers (face_draw.h).
#include "face_draw.h"

#include <math.h>
#include <stdio.h>

const TNColor tn_background = {0.07, 0.08, 0.09};
const TNColor tn_panel = {0.12, 0.13, 0.15};
const TNColor tn_foreground = {0.92, 0.93, 0.94};
const TNColor tn_dim = {0.55, 0.58, 0.62};
const TNColor tn_accent = {0.98, 0.71, 0.20};
const TNColor tn_good = {0.35, 0.85, 0.45};
const TNColor tn_warn = {0.95, 0.35, 0.30};

void tn_set_color(cairo_t *cr, TNColor color, double alpha) {
    cairo_set_source_rgba(cr, color.red, color.green, color.blue, alpha);
}

void tn_text(cairo_t *cr, const char *text, double x, double y, double sizePx, int bold, double align, TNColor color) {
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, sizePx);
    cairo_text_extents_t extents;
    cairo_text_extents(cr, text, &extents);
    tn_set_color(cr, color, 1);
    cairo_move_to(cr, x - align * extents.x_advance, y);
    cairo_show_text(cr, text);
}

void tn_panel_rect(cairo_t *cr, double x, double y, double width, double height) {
    double radius = fmin(8, fmin(width, height) / 4);
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + width - radius, y + radius, radius, -M_PI / 2, 0);
    cairo_arc(cr, x + width - radius, y + height - radius, radius, 0, M_PI / 2);
    cairo_arc(cr, x + radius, y + height - radius, radius, M_PI / 2, M_PI);
    cairo_arc(cr, x + radius, y + radius, radius, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
    tn_set_color(cr, tn_panel, 1);
    cairo_fill(cr);
}

void tn_note_name(int midiNote, char *name, size_t capacity) {
    static const char *const names[12] = {"C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B"};
    if (midiNote < 0 || midiNote > 127) {
        snprintf(name, capacity, "—");
        return;
    }
    snprintf(name, capacity, "%s%d", names[midiNote % 12], midiNote / 12 - 1);
}

int tn_decimals_for(double sigma, int minimum, int maximum) {
    if (!(sigma > 0) || !isfinite(sigma)) return minimum;
    int decimals = (int)ceil(-log10(sigma)) + 1;
    return decimals < minimum ? minimum : decimals > maximum ? maximum : decimals;
}
