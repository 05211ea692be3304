# wedged: the user's metadata store held by another process (a deadlock
# elsewhere): a `jack_property -s` stopped by gdb inside Berkeley DB's write
# (__ham_add_el: it holds the hash page's write lock), so every metadata call
# of this uid blocks. A node then starts, runs (reads its tone), says once
# that metadata is unavailable, and ends within 2 s of SIGTERM. The lock is
# released afterwards (gdb lets jack_property finish); killed while holding
# it, it would wedge the store for good (jackd itself then ignores SIGTERM).
# After the release the store must work again: the node ended while its
# metadata call was still waiting for the lock, and had that call been the
# node's own, Berkeley DB would grant the lock to the dead process once
# released, blocking every write of this uid for good (jack2 opens the store
# without failchk). The call is its helper process's, which waits on. The
# store is removed after (stopped server), whatever happened: run it under a
# uid of its own (scripts/stress does, as root).
source "$(dirname "$0")/lib.bash"
stress_check wedged
command -v gdb >/dev/null || { fail "wedged: needs gdb (scripts/install-deps)"; stress_done; }
start_server
trap 'for pid in "${stress_pids[@]}"; do kill -9 "$pid" 2>/dev/null; done; stop_server; rm -rf "/dev/shm/jack_db-$(id -u)"' EXIT
# Names left by earlier runs (a SIGKILLed server's clients keep theirs in the per-uid store).
names_before=$(timeout 5 jack_property -l 2>/dev/null | grep -c 'ToneNode')
rm -f release
gdb -batch -nx -iex 'set debuginfod enabled off' -ex 'set breakpoint pending on' \
    -ex 'break __ham_add_el' -ex run -ex 'shell while [ ! -e release ]; do sleep 0.1; done' -ex continue \
    --args jack_property -s -c system tn-stress-wedge held >gdb.log 2>&1 &
gpid=$!
for _ in $(seq 100); do grep -q 'hit Breakpoint 1' gdb.log && break; sleep 0.1; done
if ! grep -q 'hit Breakpoint 1' gdb.log; then
    fail "wedged: could not stop jack_property inside Berkeley DB: $(tail -2 gdb.log)"
else
    # (Not checked with a `timeout jack_property -l`: a client killed
    # while it waits for a Berkeley DB lock leaves its locks behind.)
    : >out-w1    # made here: the loop below may read it before the node's shell opens it
    "$tonenode" run -n w1 --loopback --json --hop 4096 --freq 523.25 >out-w1 2>err-w1 &
    pid=$!
    stress_pids+=("$pid")
    start=$(now)
    read_tone() { [ "$(grep -c '"freq_hz":523\.2[45]' out-w1)" -ge 3 ] || ! kill -0 "$pid" 2>/dev/null; }
    within 10 read_tone
    reading=$(grep -c '"freq_hz":523\.2[45]' out-w1)
    # The warning comes from a thread of the node 1 s after its helper started (not in the
    # start-up's way): wait for it (at most 3 s), then 1 s more for a second one, if there were one.
    for _ in $(seq 60); do grep -q 'metadata' err-w1 && break; sleep 0.05; done
    sleep 1
    warnings=$(grep -c 'metadata' err-w1)
    start=$(now); kill -TERM "$pid"
    ended() { ! kill -0 "$pid" 2>/dev/null; }
    ran_for=$took
    if within 4 ended; then wait "$pid"; status=$?; else kill -9 "$pid"; status=hung; fi
    if [ "$reading" -ge 3 ] && [ "$warnings" = 1 ] && [ "$status" != hung ] && below "$took" 2; then
        pass "wedged: with the metadata store held, a node read its tone ${ran_for} s after start, warned once ('$(grep metadata err-w1 | sed 's/^tonenode: //' | cut -c1-60)…') and ended ${took} s after SIGTERM (status $status)"
    else
        fail "wedged: tone read $reading time(s) in ${ran_for} s, $warnings metadata warning(s), ended after ${took} s (status $status): $(tail -3 err-w1)"
    fi
fi
touch release
for _ in $(seq 100); do kill -0 "$gpid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$gpid" 2>/dev/null && fail "wedged: jack_property did not finish once released"
wait "$gpid" 2>/dev/null
# The node has exited; its metadata helper was still waiting for the lock
# (it never dies inside a wait). Once the holder let go, the store must
# take a write and answer a listing again, the helper must have removed
# the node's names and ended.
jack_property -s -c system tn-stress-after released >/dev/null 2>&1 &
gpid=$!
start=$(now)
for _ in $(seq 30); do kill -0 "$gpid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$gpid" 2>/dev/null; then
    fail "wedged: after the release and the node's exit, a metadata write still blocks (the store is wedged for this uid)"
    kill -9 "$gpid"
else
    wrote=$(since "$start")
    for _ in $(seq 30); do pgrep -u "$(id -u)" -f -- '__jack-metadata-helper' >/dev/null || break; sleep 0.1; done
    helpers=$(pgrep -u "$(id -u)" -f -- '__jack-metadata-helper' | wc -l)
    timeout 5 jack_property -l >props 2>&1
    listed=$?
    if [ "$listed" = 0 ] && [ "$(grep -c 'ToneNode' props)" -le "$names_before" ] && [ "$helpers" = 0 ]; then
        pass "wedged: after the release the store took a write in ${wrote} s and answers jack_property -l; the node's names removed, no helper left"
    else
        fail "wedged: after the release: jack_property -l status $listed, $(grep -c ToneNode props) ToneNode name(s) (${names_before} before), $helpers helper(s) left"
    fi
fi
wait "$gpid" 2>/dev/null
stress_done
