// The LV2 C API (Debian lv2-dev) as ToneLV2 sees it: the worker's schedule and
// respond calls. The descriptor table itself is in shim.c.
#ifndef TN_LV2_SHIM_H
#define TN_LV2_SHIM_H

#include <stdint.h>
#include <lv2/core/lv2.h>
#include <lv2/worker/worker.h>

/// Asks the host to call the plugin's `work` with a copy of `data`
/// (LV2_WORKER_SUCCESS, or LV2_WORKER_ERR_NO_SPACE when its queue is full).
/// Real-time safe by the worker extension's contract.
static inline int tn_lv2_schedule(const LV2_Worker_Schedule *schedule, uint32_t size, const void *data) {
    return (int)schedule->schedule_work(schedule->handle, size, data);
}

/// Hands `data` back to the audio thread (the host copies it; `work_response` gets it).
static inline int tn_lv2_respond(LV2_Worker_Respond_Function respond, LV2_Worker_Respond_Handle handle,
                                 uint32_t size, const void *data) {
    return (int)respond(handle, size, data);
}

#endif
