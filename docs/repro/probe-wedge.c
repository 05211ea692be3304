// The probe wedge of issue 13 (docs/engineering/reliability.md), against libjack alone.
// Starts a private dummy jackd, opens and closes a probe client N times as
// early as the server answers (as JackClient.serverIsReachable did), stops
// it; many rounds. A round short of N opens within 10 s is reported WEDGED
// (libjack's synchro mutex left locked by a cancelled notification thread:
// check with gdb, `p *(pthread_mutex_t*)ADDR` of the thread blocked in
// pthread_mutex_lock, owner tid not in /proc/PID/task).
//
//   gcc -O1 -g -o probe-wedge docs/repro/probe-wedge.c -ljack -lpthread
//   # two processes of one user at once, same probe name (before):
//   ./probe-wedge tn-a 40 tonenode-probe 20 & ./probe-wedge tn-b 40 tonenode-probe 20; wait
//   # each its own name (after): tonenode-probe-a / tonenode-probe-b
// Run as a uid of its own (setpriv --reuid=N --regid=N --clear-groups) on a
// shared machine; args: server-name prefix, rounds, probe name, opens/round.
// A watchdog thread dumps all threads with gdb when a round exceeds 15 s.
#include <jack/jack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>
#include <pthread.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>

static volatile double roundStart = 0;
static volatile int roundNo = 0;
static pid_t jackdPid = 0;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int verbose = 0;
static void quiet(const char *m) { if (strstr(m, "Init not done") || strstr(m, "not running or cannot") || strstr(m, "No such file or directory") || strstr(m, "request channel") || strstr(m, "lock down")) return; if (verbose) fprintf(stderr, "[%d r%d] %s\n", getpid(), roundNo, m); }

static void *watchdog(void *arg) {
    (void)arg;
    for (;;) {
        sleep(1);
        if (roundStart > 0 && now() - roundStart > 15) {
            char cmd[256];
            fprintf(stderr, "HANG in round %d\n", roundNo);
            snprintf(cmd, sizeof cmd, "gdb -p %d -batch -ex 'thread apply all bt' > hang-%d-%d.txt 2>&1", getpid(), getpid(), roundNo);
            system(cmd);
            if (jackdPid > 0) {
                snprintf(cmd, sizeof cmd, "gdb -p %d -batch -ex 'thread apply all bt' > hang-jackd-%d-%d.txt 2>&1", jackdPid, getpid(), roundNo);
                system(cmd);
                kill(jackdPid, SIGTERM);
            }
            printf("HANG round %d\n", roundNo); fflush(stdout);
            _exit(3);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    const char *prefix = argc > 1 ? argv[1] : "tn-i13hang";
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    const char *probeName = argc > 3 ? argv[3] : "tonenode-probe";
    int closesPerRound = argc > 4 ? atoi(argv[4]) : 1;
    verbose = getenv("VERBOSE") != NULL;
    jack_set_error_function(quiet);
    jack_set_info_function(quiet);
    pthread_t w; pthread_create(&w, NULL, watchdog, NULL);
    int ok = 0;
    for (int r = 0; r < rounds; r++) {
        char name[128]; snprintf(name, sizeof name, "%s-%d-%d", prefix, getpid(), r);
        roundNo = r; roundStart = now();
        pid_t p = fork();
        if (p == 0) {
            int fd = open("/dev/null", 1); dup2(fd, 1); dup2(fd, 2);
            setenv("JACK_NO_AUDIO_RESERVATION", "1", 1);
            execlp("jackd", "jackd", "-n", name, "--no-realtime", "-d", "dummy", "-r", "48000", "-p", "256", (char*)NULL);
            _exit(127);
        }
        jackdPid = p;
        int attempts = 0, opened = 0;
        double t0 = now();
        while (opened < closesPerRound && now() - t0 < 10) {
            jack_status_t st;
            jack_client_t *c = jack_client_open(probeName, JackNoStartServer | JackServerName, &st, name);
            attempts++;
            if (c) { jack_client_close(c); opened++; }
            else usleep(1000);
        }
        kill(p, SIGTERM);
        int status; waitpid(p, &status, 0);
        jackdPid = 0;
        printf("round %d attempts %d opened %d in %.3f s\n", r, attempts, opened, now() - t0); fflush(stdout);
        if (opened) ok++;
        if (opened < closesPerRound) { printf("WEDGED in round %d\n", r); fflush(stdout);
            if (getenv("OWNER")) { char cmd[128]; snprintf(cmd, sizeof cmd, "/tmp/i13hang/owner.sh %d", getpid()); fflush(stdout); system(cmd); } roundStart = 0; return 2; }
        roundStart = 0;
    }
    printf("done %d rounds, %d came up\n", rounds, ok);
    return 0;
}
