// CJack is a C target (not a system library) so that a change to one of its
// headers rebuilds the Swift modules that import it: SwiftPM rebuilds them
// when a header of a C target's own .c files changes, and tracks nothing of a
// system library's or a hand-written module map (a shim.h change once left
// ToneJack's objects, and the tonenode built from them, hours out of date).
// So every header here is included by a .c file of this target: this one
// includes each that no other .c file does (helper_spawn.c and memory_locks.c
// include their own). A header added to CJack goes on this list.
//
// What the JACK thread runs is in the headers, static inline, so the Swift
// side inlines what it calls; helper_spawn.c and memory_locks.c hold what
// needs glibc's GNU declarations or is called once, off the real-time path.
#include "shim.h"
#include "bridge.h"
#include "callback_profile.h"
#include "calling_thread.h"
#include "client_open.h"
#include "pretty_name.h"
#include "loop_relay.h"
