// The tests' report of what a face drew (face_report.h).
#include "face_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tn_face_report_path(void) {
    const char *path = getenv("TONENODE_LV2UI_REPORT");
    return path && *path ? path : NULL;
}

void tn_face_report_write(const char *path, const char *text) {
    char partial[4096];
    if (snprintf(partial, sizeof partial, "%s.partial", path) >= (int)sizeof partial) return;
    FILE *file = fopen(partial, "w");
    if (!file) return;
    size_t length = strlen(text);
    int written = fwrite(text, 1, length, file) == length;
    if (fclose(file) != 0 || !written) {
        remove(partial);
        return;
    }
    rename(partial, path);
}
