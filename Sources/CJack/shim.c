// CJack is a C target (not a system library) so that a change to shim.h
// rebuilds the Swift modules that import it: SwiftPM tracks the headers of a
// C target's generated module, and not those of a system library's or a
// hand-written module map (a shim.h change once left ToneJack's objects, and
// the tonenode built from them, hours out of date). Everything is in the
// header, static inline, so the Swift side inlines what it calls.
#include "shim.h"
