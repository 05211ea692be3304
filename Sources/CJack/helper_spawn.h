// Starting ToneJack's metadata helper process, and the pipes to it.
//
// Why C: posix_spawn's session flag and closefrom action, and pipe2, are
// declared by glibc only under _GNU_SOURCE, which Swift's Glibc module is
// built without; helper_spawn.c defines it. Main thread (never the JACK
// thread): ToneJack's MetadataHelperProcess.start.
#ifndef TONENODE_CJACK_HELPER_SPAWN_H
#define TONENODE_CJACK_HELPER_SPAWN_H

#include <sys/types.h>

/// A pipe whose ends are close-on-exec from the start, so no child that
/// another thread spawns meanwhile inherits them. Returns 0 on success.
int tn_pipe_cloexec(int fds[2]);

/// Starts ToneJack's metadata helper (`path` with `argv`, NULL-terminated):
/// `stdin_fd` and `stdout_fd` become its stdin and stdout, /dev/null its
/// stderr, and nothing else of ours is inherited (the JACK client's socket
/// above all: the server must see the node's socket close when the node
/// ends). In a session of its own, so a terminal's Ctrl-C is not for it, and
/// with SIGINT, SIGTERM, SIGHUP and SIGQUIT blocked: it looks at them only
/// between metadata calls, never dying inside one (a process that dies
/// waiting for a Berkeley DB lock leaves the request behind). posix_spawn,
/// not fork: the caller has threads. Returns 0 or an errno.
int tn_spawn_metadata_helper(const char *path, char *const argv[], int stdin_fd, int stdout_fd, pid_t *pid);

#endif
