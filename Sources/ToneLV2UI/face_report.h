// What a face drew, written for the end-to-end tests: only when the host's
// environment names a file (TONENODE_LV2UI_REPORT), never otherwise. UI thread only.
#ifndef TN_FACE_REPORT_H
#define TN_FACE_REPORT_H

/// The file named by TONENODE_LV2UI_REPORT, or NULL (read once per face).
const char *tn_face_report_path(void);

/// Replaces `path` with `text` whole (written beside it, then renamed), so a
/// reader never sees half of it. Failures are ignored: the report is a test aid.
void tn_face_report_write(const char *path, const char *text);

#endif
