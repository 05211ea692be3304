// The calling thread's kernel id, name and nice value.
//
// Why C: syscall(2) and prctl(2) are variadic, which Swift cannot call, and
// the renice-once flag is _Thread_local, which Swift has no form of. The
// shim's thread-init callback names JACK's threads with tn_name_this_thread
// (once per thread, before its first callback); the rest is for the worker
// and report threads (ProcessBridge's static functions), never the JACK thread.
#ifndef TONENODE_CJACK_CALLING_THREAD_H
#define TONENODE_CJACK_CALLING_THREAD_H

#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The calling thread's kernel id (/proc/self/task/ID).
static inline int32_t tn_this_thread_id(void) { return (int32_t)syscall(SYS_gettid); }

/// Names the calling thread for the kernel (`top -H`, /proc/…/task/TID/comm;
/// at most 15 bytes are kept). Returns 0 on success.
static inline int tn_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0);
}

/// Raises the nice value of the calling thread only (Linux: a thread is a
/// task with its own nice value). The analysis worker calls it so that, on a
/// server without real-time scheduling, it never competes with JACK's
/// process threads for a core. Returns 0 on success.
static inline int tn_renice_this_thread(int nice_value) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice_value);
}

/// `tn_renice_this_thread`, once per thread: a thread-local flag makes later
/// calls on the same thread return at once, so a task that may run on any
/// thread of a pool can call it for every event. Returns 0 on success or
/// when this thread was reniced before.
static inline int tn_renice_this_thread_once(int nice_value) {
    static _Thread_local int reniced = 0;
    if (reniced) return 0;
    reniced = 1;
    return tn_renice_this_thread(nice_value);
}

#endif
