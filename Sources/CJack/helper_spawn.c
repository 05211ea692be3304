// See helper_spawn.h. _GNU_SOURCE before any include: pipe2,
// posix_spawn_file_actions_addclosefrom_np (glibc 2.34+) and
// POSIX_SPAWN_SETSID are GNU extensions.
#define _GNU_SOURCE
#include "helper_spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

int tn_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int tn_spawn_metadata_helper(const char *path, char *const argv[], int stdin_fd, int stdout_fd, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t blocked;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) { posix_spawn_file_actions_destroy(&actions); return result; }
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGINT);
    sigaddset(&blocked, SIGTERM);
    sigaddset(&blocked, SIGHUP);
    sigaddset(&blocked, SIGQUIT);
    if ((result = posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0)) == 0
        && (result = posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1)) == 0
        && (result = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)) == 0
        && (result = posix_spawn_file_actions_addclosefrom_np(&actions, 3)) == 0
        && (result = posix_spawnattr_setsigmask(&attributes, &blocked)) == 0
        && (result = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSID)) == 0) {
        result = posix_spawn(pid, path, &actions, &attributes, argv, environ);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}
