// xface: what LV2FaceTests do to an X11 window, as a person's X server would
// see it. Compiled by the tests (LV2Bundle.compile), against libX11 and cairo.
//
//   xface shot WINDOW FILE.png   the window's pixels as the server holds them, as PNG; prints
//                                "colours N", the number of distinct colours in it (a blank window has 1)
//   xface close WINDOW           asks the window to close (WM_DELETE_WINDOW), as a window manager does
//   xface resize WINDOW W H      resizes it, as a window manager does
//
// WINDOW is an X window id (0x… or decimal). Exit 0 on success, 1 with one line on stderr otherwise.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <cairo/cairo.h>

static int failed(const char *what) {
    fprintf(stderr, "xface: %s\n", what);
    return 1;
}

static int errorCount = 0;
static int onError(Display *display, XErrorEvent *error) {
    (void)display;
    (void)error;
    errorCount++;
    return 0;
}

static int shot(Display *display, Window window, const char *path) {
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(display, window, &attributes)) return failed("no such window");
    XImage *image = XGetImage(display, window, 0, 0, (unsigned)attributes.width, (unsigned)attributes.height, AllPlanes,
                              ZPixmap);
    if (!image || errorCount) return failed("the window's image could not be read (not mapped?)");
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, attributes.width, attributes.height);
    unsigned char *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    for (int y = 0; y < attributes.height; y++) {
        for (int x = 0; x < attributes.width; x++) {
            unsigned long pixel = XGetPixel(image, x, y);
            unsigned red = (unsigned)((pixel & image->red_mask) >> __builtin_ctzl(image->red_mask));
            unsigned green = (unsigned)((pixel & image->green_mask) >> __builtin_ctzl(image->green_mask));
            unsigned blue = (unsigned)((pixel & image->blue_mask) >> __builtin_ctzl(image->blue_mask));
            ((unsigned *)(data + y * stride))[x] = red << 16 | green << 8 | blue;
        }
    }
    cairo_surface_mark_dirty(surface);
    // Distinct colours, counted in a 4096-bit table of a hash of each (enough to tell a blank window from a face).
    static unsigned char seen[4096 / 8];
    int colours = 0;
    for (int y = 0; y < attributes.height; y++) {
        for (int x = 0; x < attributes.width; x++) {
            unsigned colour = ((unsigned *)(data + y * stride))[x] & 0xffffff;
            unsigned slot = (colour * 2654435761u) >> 20;
            if (!(seen[slot / 8] & (1u << (slot % 8)))) {
                seen[slot / 8] |= (unsigned char)(1u << (slot % 8));
                colours++;
            }
        }
    }
    printf("colours %d\n", colours);
    XDestroyImage(image);
    cairo_status_t status = cairo_surface_write_to_png(surface, path);
    cairo_surface_destroy(surface);
    return status == CAIRO_STATUS_SUCCESS ? 0 : failed("the PNG could not be written");
}

static int closeWindow(Display *display, Window window) {
    XEvent event;
    memset(&event, 0, sizeof event);
    event.xclient.type = ClientMessage;
    event.xclient.window = window;
    event.xclient.message_type = XInternAtom(display, "WM_PROTOCOLS", False);
    event.xclient.format = 32;
    event.xclient.data.l[0] = (long)XInternAtom(display, "WM_DELETE_WINDOW", False);
    event.xclient.data.l[1] = CurrentTime;
    XSendEvent(display, window, False, NoEventMask, &event);
    XSync(display, False);
    return errorCount ? failed("no such window") : 0;
}

int main(int argc, char **argv) {
    if (argc < 3) return failed("usage: xface shot WINDOW FILE.png | close WINDOW | resize WINDOW W H");
    Display *display = XOpenDisplay(NULL);
    if (!display) return failed("cannot open the display ($DISPLAY)");
    XSetErrorHandler(onError);
    Window window = (Window)strtoul(argv[2], NULL, 0);
    int status;
    if (!strcmp(argv[1], "shot") && argc == 4) {
        status = shot(display, window, argv[3]);
    } else if (!strcmp(argv[1], "close")) {
        status = closeWindow(display, window);
    } else if (!strcmp(argv[1], "resize") && argc == 5) {
        XResizeWindow(display, window, (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
        XSync(display, False);
        status = errorCount ? failed("no such window") : 0;
    } else {
        status = failed("usage: xface shot WINDOW FILE.png | close WINDOW | resize WINDOW W H");
    }
    XCloseDisplay(display);
    return status;
}
