// See memory_locks.h.
#include "memory_locks.h"

#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int tn_forgo_large_memory_locks(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0) return -1;
    const rlim_t small = (rlim_t)1 << 20;
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > small) {
        limit.rlim_cur = small;
        if (setrlimit(RLIMIT_MEMLOCK, &limit) != 0) return -1;
    }
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &header, caps) != 0) return -1;
    if (!(caps[CAP_TO_INDEX(CAP_IPC_LOCK)].effective & CAP_TO_MASK(CAP_IPC_LOCK))) return 0;
    caps[CAP_TO_INDEX(CAP_IPC_LOCK)].effective &= ~CAP_TO_MASK(CAP_IPC_LOCK);
    return syscall(SYS_capset, &header, caps) == 0 ? 0 : -1;
}
