#!/bin/bash
# 8 `tonenode run` started at once, SIGTERMed at the same instant after 0.5 s
# (as stress 'together'): time until the last exits; with and without
# --no-metadata, alternating, ROUNDS rounds each. Private jackd.
set -uo pipefail
tonenode=${TONENODE:-$PWD/.build/release/tonenode}
rounds=${ROUNDS:-5}
server="tn-cost-t$$"
export JACK_DEFAULT_SERVER="$server" JACK_NO_AUDIO_RESERVATION=1
work=$(mktemp -d)
jackd -n "$server" --no-realtime -d dummy -r 48000 -p 256 >"$work/jackd.log" 2>&1 &
jpid=$!
for _ in $(seq 50); do jack_lsp >/dev/null 2>&1 && break; sleep 0.2; done
declare -A ms
for round in $(seq "$rounds"); do
  for variant in meta nometa; do
    extra=(); [ $variant = nometa ] && extra=(--no-metadata)
    pids=()
    for k in $(seq 8); do "$tonenode" run -n "t$k" --plain "${extra[@]}" >/dev/null 2>"$work/err$k" & pids+=($!); done
    for k in $(seq 8); do for _ in $(seq 100); do grep -q "client 't$k" "$work/err$k" && break; sleep 0.05; done; done
    sleep 0.5
    t0=${EPOCHREALTIME/./}
    kill -TERM "${pids[@]}"
    for pid in "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.005; done; done
    t1=${EPOCHREALTIME/./}
    st=""; for pid in "${pids[@]}"; do wait "$pid"; st="$st $?"; done
    ms[$variant]+="$(( (t1 - t0) / 1000 )) "
    echo "round $round $variant: $(( (t1 - t0) / 1000 )) ms, statuses$st"
    sleep 0.5
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for variant in meta nometa; do echo "$variant: 8 nodes stopped together, ms: ${ms[$variant]}(median $(echo ${ms[$variant]} | median))"; done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
kill $jpid; wait $jpid 2>/dev/null; rm -rf "$work"
