// The LV2 UIs ("faces") of ToneNode's plugins: X11 windows drawn with cairo.
// The library's one export is `lv2ui_descriptor` (bundle/ui-exports.map); this
// header exists because a SwiftPM C target needs a public one.
#ifndef TN_LV2UI_H
#define TN_LV2UI_H

#include <lv2/ui/ui.h>

LV2_SYMBOL_EXPORT const LV2UI_Descriptor *lv2ui_descriptor(uint32_t index);

#endif
