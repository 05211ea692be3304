// Forgoing libjack's large memory locks in a process that never activates a client.
//
// Why C: capget(2) and capset(2) have no glibc wrappers, only syscall(2),
// which is variadic and so out of Swift's reach. Called once, at the start of
// ToneJack's metadata helper process, never in the node.
#ifndef TONENODE_CJACK_MEMORY_LOCKS_H
#define TONENODE_CJACK_MEMORY_LOCKS_H

/// For a process whose JACK client is never activated (the metadata
/// helper): libjack locks the server's whole graph segment in every client
/// process (jack2 JackShmReadWritePtr::Init: 107 MB with jackd's default 2048
/// ports) and unlocks it at the close, kernel time that protects nothing when
/// no process thread ever reads the segment. After this call that lock fails
/// at once: RLIMIT_MEMLOCK's soft limit goes down to 1 MiB (libjack's small
/// locks still fit: its semaphores are mapped MAP_LOCKED, 12 bytes each) and
/// CAP_IPC_LOCK, which lets root lock past any limit, leaves the effective
/// set. libjack reports the refused lock through its error function only.
/// Returns 0 on success.
int tn_forgo_large_memory_locks(void);

#endif
