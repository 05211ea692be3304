# dropped: a client the server gives up on, made so with gdb. jack2 (1.9.21
# here, and its source to date) never drops a client for overrunning (the
# overrun: Tests/EndToEndTests/Stress/OverrunTests.swift); it does drop a
# client whose socket breaks, which is what jack1 does to a zombie. So gdb
# calls shutdown() on jackd's end of the node's request socket; the server
# removes the client and its ports. The node says so, re-opens, restores its
# connection and reads its tone (settings kept); under --no-reconnect it
# exits 1. Each within 2 s of gdb's return.
source "$(dirname "$0")/lib.bash"
stress_check dropped
command -v gdb >/dev/null || { fail "dropped: needs gdb (scripts/install-deps)"; stress_done; }
start_server
looped() { jack_lsp -c 2>/dev/null | grep -A1 "^$1:out\$" | grep -q "^   $1:in\$"; }
# Reports after line $2 of out-$1 that match $3.
count_after() { tail -n +"$(($2 + 1))" "out-$1" | grep -c "$3"; }
# Three reports after line $2 of out-$1 read the tone it was started with.
reads_tone() { [ "$(count_after "$1" "$2" '"freq_hz":523\.2[45]')" -ge 3 ]; }
# For a failure: what the reports after line $2 read, and the loop.
after_lines() {
    echo "reports after: $(count_after "$1" "$2" '"freq_hz":523\.2[45]') tone," \
         "$(count_after "$1" "$2" '"freq_hz":null') none; looped $(looped "$1" && echo yes || echo no)"
}
# jackd's end of the node's request socket (ss: the node's connected socket's peer).
server_fd() {
    local inode
    for inode in $(ss -xp 2>/dev/null | awk -v p="pid=$1," '$0 ~ p && $5 == "*" {print $8}'); do
        ss -xp 2>/dev/null | awk -v i="$inode" -v p="pid=$jackd_pid," '$6 == i && $0 ~ p' | sed -n 's/.*fd=\([0-9]*\).*/\1/p'
    done | head -1
}
drop() { gdb -p "$jackd_pid" -batch -nx -iex 'set debuginfod enabled off' -ex "call (int)shutdown($1, 2)" >/dev/null 2>&1; }
# Starts node $1 (more options after it) reading its own tone; sets $pid and $fd.
start_node() {
    local name=$1; shift
    "$tonenode" run -n "$name" --loopback --json --hop 4096 --freq 523.25 "$@" >"out-$name" 2>"err-$name" &
    pid=$!
    stress_pids+=("$pid")
    for _ in $(seq 100); do [ -s "out-$name" ] && break; sleep 0.1; done
    fd=$(server_fd "$pid")
}

start_node d1
if [ -z "$fd" ]; then fail "dropped: no socket of jackd found for the node (ss -xp)"
else
    drop "$fd"; start=$(now)
    reopened=""
    back() {
        grep -q 'shut the client down' err-d1 && grep -q 'reconnected' err-d1 || return 1
        reopened=${reopened:-$(wc -l <out-d1)}
        looped d1 && reads_tone d1 "$reopened"
    }
    if within 4 back && below "$took" 2; then
        pass "dropped by jackd: said so, re-opened with its connection and tone within ${took} s"
    else
        fail "dropped: ${took} s, $(after_lines d1 "${reopened:-$(wc -l <out-d1)}"): $(tail -3 err-d1)"
        jack_lsp -c >ports-d1 2>&1
    fi
fi
kill -TERM "$pid"; wait "$pid" 2>/dev/null

start_node d2 --no-reconnect
if [ -z "$fd" ]; then fail "dropped: --no-reconnect: no socket of jackd found for the node"
else
    drop "$fd"; start=$(now)
    ended() { ! kill -0 "$pid" 2>/dev/null; }
    within 4 ended; wait "$pid" 2>/dev/null; status=$?
    [ "$status" = 1 ] && below "$took" 2 \
        && pass "dropped under --no-reconnect: exit 1 within ${took} s" \
        || fail "dropped under --no-reconnect: status $status after ${took} s: $(tail -2 err-d2)"
fi
stress_done
