// TNFaceWindow (face_window.h): an X11 window and its cairo surface.
#include "face_window.h"

#include <string.h>
#include <X11/Xutil.h>
#include <cairo/cairo-xlib.h>

bool tn_face_window_open(TNFaceWindow *window, Window parent, const char *title,
                         int widthPx, int heightPx, int minWidthPx, int minHeightPx) {
    memset(window, 0, sizeof *window);
    // A display connection of our own: Xlib calls on it from the host's GUI
    // thread only, and a host's toolkit (GTK, Qt) keeps its own.
    window->display = XOpenDisplay(NULL);
    if (!window->display) return false;
    Display *display = window->display;
    int screen = DefaultScreen(display);
    Window root = RootWindow(display, screen);
    XSetWindowAttributes attributes = {
        .background_pixel = BlackPixel(display, screen),
        .border_pixel = 0,
        .event_mask = ExposureMask | StructureNotifyMask | ButtonPressMask | ButtonReleaseMask | Button1MotionMask,
    };
    window->window = XCreateWindow(display, parent ? parent : root, 0, 0, (unsigned)widthPx, (unsigned)heightPx, 0,
                                   CopyFromParent, InputOutput, CopyFromParent,
                                   CWBackPixel | CWBorderPixel | CWEventMask, &attributes);
    window->widthPx = widthPx;
    window->heightPx = heightPx;
    XStoreName(display, window->window, title);
    // The size hints tell an embedding host (suil) the size to give and the least it may.
    XSizeHints *hints = XAllocSizeHints();
    if (hints) {
        hints->flags = PMinSize | PBaseSize | PSize;
        hints->min_width = minWidthPx;
        hints->min_height = minHeightPx;
        hints->base_width = hints->width = widthPx;
        hints->base_height = hints->height = heightPx;
        XSetWMNormalHints(display, window->window, hints);
        XFree(hints);
    }
    if (!parent) {
        window->deleteAtom = XInternAtom(display, "WM_DELETE_WINDOW", False);
        XSetWMProtocols(display, window->window, &window->deleteAtom, 1);
    }
    window->surface = cairo_xlib_surface_create(display, window->window, DefaultVisual(display, screen),
                                                widthPx, heightPx);
    XMapRaised(display, window->window);
    XFlush(display);
    window->needsDraw = true;
    return true;
}

static void sized(TNFaceWindow *window, int widthPx, int heightPx) {
    if (widthPx == window->widthPx && heightPx == window->heightPx) return;
    window->widthPx = widthPx;
    window->heightPx = heightPx;
    cairo_xlib_surface_set_size(window->surface, widthPx, heightPx);
    window->needsDraw = true;
}

static void pointer(TNFaceWindow *window, const XEvent *event, void (*onPointer)(void *, TNPointerEvent), void *context) {
    TNPointerEvent out = {0};
    unsigned state;
    if (event->type == MotionNotify) {
        out.kind = TN_POINTER_DRAG;
        out.xPx = event->xmotion.x;
        out.yPx = event->xmotion.y;
        state = event->xmotion.state;
    } else {
        const XButtonEvent *button = &event->xbutton;
        out.xPx = button->x;
        out.yPx = button->y;
        state = button->state;
        if (button->button == Button4 || button->button == Button5) {
            if (event->type != ButtonPress) return;
            out.kind = button->button == Button4 ? TN_POINTER_WHEEL_UP : TN_POINTER_WHEEL_DOWN;
        } else if (button->button == Button1) {
            out.kind = event->type == ButtonPress ? TN_POINTER_PRESS : TN_POINTER_RELEASE;
            if (event->type == ButtonPress) {
                out.isDouble = window->lastPressMs && button->time - window->lastPressMs < 300;
                window->lastPressMs = button->time;
            }
        } else {
            return;
        }
    }
    out.fine = (state & (ShiftMask | ControlMask)) != 0;
    onPointer(context, out);
}

void tn_face_window_pump(TNFaceWindow *window, void (*onPointer)(void *, TNPointerEvent), void *context) {
    while (XPending(window->display) > 0) {
        XEvent event;
        XNextEvent(window->display, &event);
        switch (event.type) {
        case Expose:
            if (event.xexpose.count == 0) window->needsDraw = true;
            break;
        case ConfigureNotify:
            sized(window, event.xconfigure.width, event.xconfigure.height);
            break;
        case ButtonPress:
        case ButtonRelease:
        case MotionNotify:
            pointer(window, &event, onPointer, context);
            break;
        case ClientMessage:
            if (window->deleteAtom && (Atom)event.xclient.data.l[0] == window->deleteAtom) window->closed = true;
            break;
        default:
            break;
        }
    }
}

void tn_face_window_resize(TNFaceWindow *window, int widthPx, int heightPx) {
    if (widthPx < 1 || heightPx < 1) return;
    XResizeWindow(window->display, window->window, (unsigned)widthPx, (unsigned)heightPx);
    XFlush(window->display);
    sized(window, widthPx, heightPx);
}

void tn_face_window_draw(TNFaceWindow *window, void (*draw)(void *, cairo_t *, double, double), void *context) {
    cairo_t *cr = cairo_create(window->surface);
    cairo_push_group(cr);
    draw(context, cr, window->widthPx, window->heightPx);
    cairo_pop_group_to_source(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(window->surface);
    XFlush(window->display);
    window->needsDraw = false;
}

void tn_face_window_close(TNFaceWindow *window) {
    if (!window->display) return;
    if (window->surface) cairo_surface_destroy(window->surface);
    XDestroyWindow(window->display, window->window);
    XCloseDisplay(window->display);
    memset(window, 0, sizeof *window);
}
