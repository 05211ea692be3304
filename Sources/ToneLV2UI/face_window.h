// TNFaceWindow: one X11 window with a cairo surface, pumped from the host's
// idle call. UI thread only (the host's GUI thread calls instantiate, idle,
// port_event and cleanup, never two at once).
#ifndef TN_FACE_WINDOW_H
#define TN_FACE_WINDOW_H

#include <stdbool.h>
#include <X11/Xlib.h>
#include <cairo/cairo.h>

/// What the window tells the face: pointer input (x, y in window pixels).
typedef enum { TN_POINTER_PRESS, TN_POINTER_DRAG, TN_POINTER_RELEASE, TN_POINTER_WHEEL_UP, TN_POINTER_WHEEL_DOWN } TNPointerKind;

typedef struct {
    TNPointerKind kind;
    double xPx, yPx;
    bool fine;      // Shift or Control held: small steps
    bool isDouble;  // a second press within 300 ms: reset to the default
} TNPointerEvent;

typedef struct TNFaceWindow {
    Display *display;   // the face's own connection (a host's toolkit never shares it)
    Window window;
    Atom deleteAtom;    // WM_DELETE_WINDOW, when the face is a top-level window
    cairo_surface_t *surface;
    int widthPx, heightPx;
    bool needsDraw;
    bool closed;        // the window manager asked to close (top-level only)
    Time lastPressMs;
} TNFaceWindow;

/// Opens the window as a child of `parent` (ui:parent), or top-level when
/// `parent` is 0; false (and nothing left open) when there is no display.
bool tn_face_window_open(TNFaceWindow *window, Window parent, const char *title,
                         int widthPx, int heightPx, int minWidthPx, int minHeightPx);

/// Handles every pending X event: size changes, exposure, pointer input
/// (each handed to `onPointer` with `context`).
void tn_face_window_pump(TNFaceWindow *window, void (*onPointer)(void *context, TNPointerEvent event), void *context);

/// Resizes the window (the host's ui:resize call into the face).
void tn_face_window_resize(TNFaceWindow *window, int widthPx, int heightPx);

/// Draws the whole window with `draw` off-screen, then shows it at once (no flicker).
void tn_face_window_draw(TNFaceWindow *window, void (*draw)(void *context, cairo_t *cr, double widthPx, double heightPx),
                         void *context);

void tn_face_window_close(TNFaceWindow *window);

#endif
