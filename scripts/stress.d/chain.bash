# chain (long, or CHAIN_SECONDS=N): 32 nodes in a chain (each out to the next
# one's in) and, beside them on the same server at 64 frames/period, a chain
# of 32 jack_thru clients, for CHAIN_SECONDS (600 long) in two mirrored
# rounds of half that (see below). jackd names the client that was late in
# each xrun; ToneNode's must be no more than jack_thru's over both rounds,
# and every node's RSS and fd count flat (after a 10 s warm-up: RSS within
# 4 MiB, fds equal). Each round also prints the CPU its nodes' JACK threads
# took over jack_thru's (schedstat): steadier than the late lines, which move
# ±15 % between runs of one build. CHAIN_NODE_ARGS: more options for the
# chain's nodes (`--mute`: every worker idle, only the JACK threads at work).
# The chain's jackd runs -R (SCHED_FIFO JACK threads: jackd's default, as a
# studio runs it) when the run may have it (as root, scripts/stress's own uid
# keeps CAP_SYS_NICE), else --no-realtime; REALTIME=0 or 1 chooses
# (scripts/bench/jackd-scheduling).
source "$(dirname "$0")/lib.bash"
stress_check chain
chain_seconds="${CHAIN_SECONDS:-600}"
jackd_scheduling "stress: chain" || { fail "chain: the scheduling asked for (REALTIME=${REALTIME:-}) cannot be had"; stress_done; }
chain_rate=48000; chain_period=64
start_private_jackd "stress: chain" "$server" "$chain_rate" "$chain_period" jackd.log || exit 1
chain=32
node_pids=(); thru_pids=()
wait_port() {
    for _ in $(seq 100); do
        jack_lsp 2>/dev/null | grep -q "^$1" && return 0
        sleep 0.1
    done
}
start_node() {
    "$tonenode" run -n "c$1" --plain --hop 4096 --no-metadata ${CHAIN_NODE_ARGS:-} >/dev/null 2>"errc$1" &
    node_pids+=($!); stress_pids+=($!)
    wait_port "c$1:out"
}
start_thru() {
    jack_thru "t$1" >/dev/null 2>&1 &
    thru_pids+=($!); stress_pids+=($!)
    wait_port "t$1:output_1"
}
rss() { awk '/VmRSS/ {print $2}' /proc/"$1"/status; }
fds() { ls /proc/"$1"/fd | wc -l; }
# The /proc task directories of a node's libjack threads: its thread-init
# callback names them tonenode-jack (jack2 calls it on the notification
# threads as well as on the process thread).
jack_tasks() {
    local task
    for task in /proc/"$1"/task/*; do
        [ "$(cat "$task/comm" 2>/dev/null)" = tonenode-jack ] && echo "$task"
    done
}
# The scheduler's nanoseconds: of the nodes' libjack threads, and of every
# thread of the jack_thru processes.
node_jack_ns() {
    local sum=0 task pid
    for pid in "${node_pids[@]}"; do
        for task in $(jack_tasks "$pid"); do sum=$((sum + $(cut -d' ' -f1 "$task/schedstat"))); done
    done
    echo "$sum"
}
thru_ns() {
    for pid in "${thru_pids[@]}"; do cat /proc/"$pid"/task/*/schedstat 2>/dev/null; done | awk '{s += $1} END {printf "%.0f", s}'
}
# Two rounds of half the time each, mirrored: the order clients register in
# is the order jackd runs those ready together, and it favours one chain.
# With the same C copy client in both chains and one chain always registered
# first, the first read 1.08 and 1.17 times the other's late lines;
# alternating within a round, 1.04 and 1.08 (the first pair still decides).
# So in round 1 the node of each odd pair registers first and jack_thru of
# each even pair; round 2 the other way round. The late lines of both rounds
# are summed.
late_nodes=0; late_thru=0; grown=0
for round in 1 2; do
    # Round 2's clients are numbered on from 33: no name waits for a client of round 1 to go.
    first=$(((round - 1) * chain + 1)); last=$((round * chain))
    for k in $(seq "$first" "$last"); do
        # One at a time (each waits for its ports): 32 FFT plannings
        # at once would swamp a small machine.
        if [ $(((k + round) % 2)) = 0 ]; then
            start_node "$k"; start_thru "$k"
        else
            start_thru "$k"; start_node "$k"
        fi
    done
    for k in $(seq "$first" $((last - 1))); do
        jack_connect "c$k:out" "c$((k + 1)):in" 2>/dev/null
        jack_connect "t$k:output_1" "t$((k + 1)):input_1" 2>/dev/null
    done
    sleep 10
    rss_before=(); fds_before=()
    for pid in "${node_pids[@]}"; do rss_before+=("$(rss "$pid")"); fds_before+=("$(fds "$pid")"); done
    mark=$(wc -l <jackd.log)
    node_ns_before=$(node_jack_ns); thru_ns_before=$(thru_ns)
    sleep $((chain_seconds / 2))
    node_ns=$(( $(node_jack_ns) - node_ns_before )); thru_ns=$(( $(thru_ns) - thru_ns_before ))
    tail -n +"$mark" jackd.log >"chain-$round.log"
    round_nodes=$(grep -c 'client = c[0-9]* was not finished' "chain-$round.log")
    round_thru=$(grep -c 'client = t[0-9]* was not finished' "chain-$round.log")
    echo "stress: chain round $round (node first in $([ "$round" = 1 ] && echo odd || echo even) pairs): late ToneNode $round_nodes, jack_thru $round_thru;" \
         "CPU of the JACK threads, node/jack_thru $(awk -v n="$node_ns" -v t="$thru_ns" -v s="$((chain_seconds / 2))" \
             -v c="$chain" -v r="$chain_rate" -v f="$chain_period" 'BEGIN {
                 p = s * r / f * c     # periods of all the clients of one chain
                 printf (t > 0 ? "%.3f" : "—"), n / t
                 printf " (%.2f / %.2f µs a client a period)", n / p / 1000, t / p / 1000 }')"
    late_nodes=$((late_nodes + round_nodes)); late_thru=$((late_thru + round_thru))
    index=0
    for pid in "${node_pids[@]}"; do
        [ $(( $(rss "$pid") - ${rss_before[$index]} )) -gt 4096 ] && grown=$((grown + 1))
        [ "$(fds "$pid")" != "${fds_before[$index]}" ] && grown=$((grown + 1))
        index=$((index + 1))
    done
    # jack_thru does not always exit on SIGTERM; nothing of its needs a clean exit.
    kill -TERM "${node_pids[@]}"
    kill -KILL "${thru_pids[@]}" 2>/dev/null
    for pid in "${node_pids[@]}"; do
        for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    done
    for pid in "${thru_pids[@]}"; do wait "$pid" 2>/dev/null; done
    node_pids=(); thru_pids=()
done
if [ "$late_nodes" -le "$late_thru" ] && [ "$grown" = 0 ]; then
    pass "chain: $chain nodes and $chain jack_thru at $chain_period frames (jackd $realtime_flag), ${chain_seconds} s in two mirrored rounds: late ToneNode $late_nodes, jack_thru $late_thru; RSS and fds flat"
else
    fail "chain: late ToneNode $late_nodes vs jack_thru $late_thru (jackd $realtime_flag; two mirrored rounds of $((chain_seconds / 2)) s); $grown RSS/fd growth(s)"
fi
stress_done
