// Drawing shared by the faces: the palette, text, panels, and how numbers
// and notes are spelled. Pure functions of their arguments; UI thread only.
#ifndef TN_FACE_DRAW_H
#define TN_FACE_DRAW_H

#include <stddef.h>
#include <cairo/cairo.h>

typedef struct { double red, green, blue; } TNColor;

extern const TNColor tn_background, tn_panel, tn_foreground, tn_dim, tn_accent, tn_good, tn_warn;

void tn_set_color(cairo_t *cr, TNColor color, double alpha);

/// Text at (x, y) (baseline), anchored by `align`: 0 left, 0.5 centre, 1 right.
void tn_text(cairo_t *cr, const char *text, double x, double y, double sizePx, int bold, double align, TNColor color);

/// A rounded panel filling the rectangle.
void tn_panel_rect(cairo_t *cr, double x, double y, double width, double height);

/// The note's name with its octave ("A4", "C♯3"; MIDI 69 is A4), or "—" outside 0…127.
void tn_note_name(int midiNote, char *name, size_t capacity);

/// Decimals that show a value measured to within `sigma` (one digit past σ's first), in `minimum…maximum`.
int tn_decimals_for(double sigma, int minimum, int maximum);

#endif
