# Sourced by scripts/stress and by each check in scripts/stress.d (a check
# is run by scripts/stress as `bash CHECK.bash`, with the environment below).
# Each check runs in a directory of its own under $STRESS_WORK, with its
# own private jackd (dummy backend), says one line PASS or FAIL per claim
# and exits 1 on any FAIL. Kept for a look when a check failed: its
# directory (jackd.log, each node's err and out files).
#   STRESS       short (default) or long
#   TONENODE     the tonenode to run (default .build/debug/tonenode)
#   STRESS_WORK  where the checks' directories go (default: a new one in /tmp)
stress_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$stress_lib_dir/../bench/jackd-scheduling"
mode="${STRESS:-short}"
failures=0
jackd_pid=""
pass() { echo "stress: PASS $*"; }
fail() { echo "stress: FAIL $*"; failures=$((failures + 1)); }
now() { date +%s.%N; }
# Seconds since $1 (a `now`), and whether that is below $2.
since() { echo "$(now) - $1" | bc; }
below() { [ "$(echo "$1 < $2" | bc)" = 1 ]; }

# The check's set-up: its directory and server name, the tonenode to run, a
# clean-up on exit (SIGKILL to the PIDs in $stress_pids, then the server).
stress_check() {
    local name=$1
    tonenode=$(readlink -f "${TONENODE:-.build/debug/tonenode}")
    [ -x "$tonenode" ] || { echo "stress: build first: swift build" >&2; exit 1; }
    work="${STRESS_WORK:-$(mktemp -d)}/$name"
    mkdir -p "$work" && cd "$work" || exit 1
    server="tn-stress-$name-$$"
    export JACK_DEFAULT_SERVER="$server" JACK_NO_AUDIO_RESERVATION=1
    stress_pids=()
    trap 'for pid in "${stress_pids[@]}"; do kill -9 "$pid" 2>/dev/null; done; stop_server' EXIT
}
# The check's end: its exit status.
stress_done() { exit $((failures > 0)); }

# jackd --no-realtime at 48 kHz, 256 frames a period (retried: the machine's
# JACK shm registry holds 8 servers, other users' included).
start_server() {
    realtime_flag=--no-realtime
    start_private_jackd stress "$server" 48000 256 jackd.log || exit 1
}
# SIGTERM, then SIGKILL after 5 s (a jackd blocked in a wedged metadata store ignores SIGTERM).
stop_server() {
    [ -n "$jackd_pid" ] || return 0
    kill "$jackd_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$jackd_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$jackd_pid" 2>/dev/null; wait "$jackd_pid" 2>/dev/null; jackd_pid=""
}

# Polls (at most $1 s from $start) until the rest of the line holds; sets $took.
within() {
    local limit=$1; shift
    while ! "$@" && below "$(since "$start")" "$limit"; do sleep 0.05; done
    took=$(since "$start")
    "$@"
}

# As root (and not already inside): runs scripts/stress again under its own
# uid (STRESS_UID, default 4213: setpriv) from a copy in a directory of its
# own, because a wedged metadata store (/dev/shm/jack_db-UID) would block
# every JACK client of that user; then exits with its status. When the chain
# runs (its jackd -R unless REALTIME=0), that uid keeps CAP_SYS_NICE if root
# may use SCHED_FIFO, so its JACK threads may have it; a container's root may
# not raise an rtprio limit. The other checks run --no-realtime servers and
# get no capability.
stress_as_own_user() {
    [ "$(id -u)" = 0 ] && [ -z "${STRESS_INNER:-}" ] || return 0
    local uid="${STRESS_UID:-4213}" work status caps=()
    local tonenode="${TONENODE:-.build/debug/tonenode}"
    [ -x "$tonenode" ] || { echo "stress: build first: swift build" >&2; exit 1; }
    work=$(mktemp -d /tmp/tn-stress.XXXXXX)
    mkdir -p "$work/scripts/bench"
    cp "$tonenode" "$work/tonenode"
    cp -r "$stress_lib_dir/../stress" "$stress_lib_dir" "$work/scripts/"
    cp "$stress_lib_dir/../bench/jackd-scheduling" "$work/scripts/bench/"
    chown -R "$uid:$uid" "$work"
    chmod 755 "$work"
    # A metadata store left wedged by an earlier run would block this one.
    rm -rf "/dev/shm/jack_db-$uid"
    if [ "$mode" = long ] || [ "${STRESS_ONLY:-}" = chain ] || [ -n "${CHAIN_SECONDS:-}" ]; then
        [ "${REALTIME:-}" != 0 ] && chrt -f 1 true 2>/dev/null && caps=(--inh-caps=+sys_nice --ambient-caps=+sys_nice)
    fi
    setpriv --reuid="$uid" --regid="$uid" --clear-groups "${caps[@]}" \
        env HOME="$work" STRESS_INNER=1 REALTIME="${REALTIME:-}" CHAIN_SECONDS="${CHAIN_SECONDS:-}" \
            CHAIN_NODE_ARGS="${CHAIN_NODE_ARGS:-}" STRESS_ONLY="${STRESS_ONLY:-}" STRESS="$mode" \
            TONENODE="$work/tonenode" STRESS_WORK="$work" \
        bash "$work/scripts/stress"
    status=$?
    [ "$status" = 0 ] && rm -rf "$work" || echo "stress: logs kept in $work" >&2
    # What that uid's servers and clients left in /dev/shm (semaphores of
    # SIGKILLed clients, the metadata store); none of its processes is left.
    pgrep -u "$uid" >/dev/null || find /dev/shm -maxdepth 1 -user "$uid" -exec rm -rf {} +
    exit $status
}
