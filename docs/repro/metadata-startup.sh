#!/bin/bash
# Start-up of `tonenode run` to its first settled report (within 0.1 Hz of
# jack_simple_client's 240 Hz), with and without --no-metadata, alternating;
# and the single node's SIGTERM-to-exit time. Release build, private jackd.
set -uo pipefail
tonenode=${TONENODE:-$PWD/.build/release/tonenode}
starts=${STARTS:-7}
server="tn-cost-$$"
export JACK_DEFAULT_SERVER="$server" JACK_NO_AUDIO_RESERVATION=1
jackd -n "$server" --no-realtime -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
jpid=$!
for _ in $(seq 50); do jack_lsp >/dev/null 2>&1 && break; sleep 0.2; done
jack_simple_client >/dev/null 2>&1 &
spid=$!
sleep 1
declare -A ms stopms
for run in $(seq "$starts"); do
  for variant in meta nometa; do
    extra=(); [ $variant = nometa ] && extra=(--no-metadata)
    coproc NODE { exec "$tonenode" run --name "st_${variant}_$run" --mute --json --fft-size 4096 --hop 512 \
                 --connect-in jack_simple_client:output1 "${extra[@]}" 2>/dev/null; }
    npid=$NODE_PID
    t0=${EPOCHREALTIME/./}; t1=""
    # (t0 taken just after the fork: the coproc's fork is a few hundred µs)
    while IFS= read -r -t 10 line <&"${NODE[0]}"; do
        [[ "$line" == *'"settled"'* ]] && continue
        [[ "$line" =~ \"freq_hz\":([0-9.]+) ]] || continue
        if [[ "${BASH_REMATCH[1]}" == 239.9* || "${BASH_REMATCH[1]}" == 240.0* ]]; then t1=${EPOCHREALTIME/./}; break; fi
    done
    sleep 0.3
    s0=${EPOCHREALTIME/./}; kill -TERM "$npid"
    while kill -0 "$npid" 2>/dev/null; do sleep 0.005; done
    s1=${EPOCHREALTIME/./}
    wait "$npid" 2>/dev/null
    ms[$variant]+="$(( (t1 - t0) / 1000 )) "
    stopms[$variant]+="$(( (s1 - s0) / 1000 )) "
    sleep 0.3
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for variant in meta nometa; do
  echo "$variant: start-up ms: ${ms[$variant]}(median $(echo ${ms[$variant]} | median)); stop ms: ${stopms[$variant]}(median $(echo ${stopms[$variant]} | median))"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
kill $spid; kill $jpid; wait 2>/dev/null
