#!/usr/bin/env python3
"""ToneNode's LV2 analyzer against x42 tuna, in jalv, on the same signals.

Starts a private jackd (dummy, 48 kHz, 256 frames), hosts both plugins in
jalv (one process each) and plays each test signal into both at once with
jackplay. Reads both plugins' control outputs with jalv's `monitors` command:
every 50 ms until the first valid reading (its time from the signal's start),
then every 0.5 s. CPU: each jalv's user + system time over the whole run,
per second of audio (jalv's own share included, the same for both).

  cc -O2 -o /tmp/jackplay Benchmarks/lv2-tuna/jackplay.c $(pkg-config --cflags --libs jack sndfile)
  Benchmarks/lv2-tuna/compare.py --lv2-path DIR_WITH_tonenode.lv2 --jackplay /tmp/jackplay
"""
import argparse, math, os, random, re, struct, subprocess, tempfile, time, wave

RATE = 48000
TUNA = "http://gareus.org/oss/lv2/tuna#one"
TONENODE = "urn:tonenode:lv2:analyzer"


def write_wav(path, samples):
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", max(-32767, min(32767, int(s * 32767)))) for s in samples))


def signals(folder, seconds):
    rng = random.Random(1)
    n = int(seconds * RATE)
    out = []
    clean = [0.25 * math.sin(2 * math.pi * 440 * i / RATE) for i in range(n)]
    write_wav(f"{folder}/clean440.wav", clean); out.append(("clean 440 Hz, -12 dBFS", f"{folder}/clean440.wav", 440.0))
    # White noise 20 dB below the tone (tone power 0.03125; noise σ² = 0.0003125).
    noisy = [s + rng.gauss(0, math.sqrt(0.0003125)) for s in clean]
    write_wav(f"{folder}/noisy440.wav", noisy); out.append(("440 Hz + white noise, SNR 20 dB", f"{folder}/noisy440.wav", 440.0))
    low = [0.25 * math.sin(2 * math.pi * 82.40689 * i / RATE) for i in range(n)]
    write_wav(f"{folder}/clean82.wav", low); out.append(("clean E2 82.41 Hz", f"{folder}/clean82.wav", 82.40689))
    # Plucked A2 (sox's Karplus-Strong), restruck every 3 s.
    pluck = f"{folder}/pluck110.wav"
    subprocess.run(["sox", "-n", "-r", str(RATE), "-c", "1", "-b", "16", pluck, "synth", "3", "pluck", "A2",
                    "repeat", str(max(0, int(seconds / 3) - 1))], check=True)
    out.append(("plucked A2 110 Hz (sox pluck)", pluck, 110.0))
    return out


class Jalv:
    def __init__(self, name, uri, controls, env):
        args = ["stdbuf", "-oL", "jalv", "-x", "-n", name] + sum((["-c", f"{k}={v}"] for k, v in controls.items()), []) + [uri]
        self.out = tempfile.NamedTemporaryFile(prefix=f"jalv-{name}-", delete=False)
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=self.out, stderr=subprocess.DEVNULL, env=env)

    def monitors(self, last):
        start = os.path.getsize(self.out.name)
        self.proc.stdin.write(b"monitors\n"); self.proc.stdin.flush()
        deadline = time.time() + 2
        while time.time() < deadline:
            with open(self.out.name, "rb") as f:
                f.seek(start); text = f.read().decode(errors="replace")
            values = dict((m.group(1), float(m.group(2))) for m in re.finditer(r"(\w+) = (-?[0-9.]+)", text))
            if last in values and text.endswith("\n"):
                return values
            time.sleep(0.005)
        return {}

    def cpu_seconds(self):
        fields = open(f"/proc/{self.proc.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.proc.terminate(); self.proc.wait(5)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lv2-path", required=True)
    parser.add_argument("--jackplay", required=True)
    parser.add_argument("--seconds", type=float, default=12)
    parser.add_argument("--only", help="only the signals whose label contains this")
    parser.add_argument("--verbose", action="store_true", help="print every reading")
    options = parser.parse_args()
    server = f"tn-lv2cmp-{os.getpid()}"
    env = dict(os.environ, JACK_DEFAULT_SERVER=server, LV2_PATH=f"{options.lv2_path}:/usr/lib/lv2")
    jackd = subprocess.Popen(["jackd", "-n", server, "--no-realtime", "-d", "dummy", "-r", str(RATE), "-p", "256"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    folder = tempfile.mkdtemp(prefix="tn-lv2cmp-")
    plugins = {"x42 tuna": (Jalv("tuna", TUNA, {}, env), "freq_out", "rms"),
               # The tuner's setting: pitch mode (fundamentals 30…2000 Hz by default, as the node's).
               "ToneNode": (Jalv("tn", TONENODE, {"mode": 1}, env), "frequency", "valid")}
    time.sleep(1.5)
    cpu0 = {name: p[0].cpu_seconds() for name, p in plugins.items()}
    wall0 = time.time()
    rows = []
    try:
        for label, path, truth in signals(folder, options.seconds):
            if options.only and options.only not in label:
                continue
            start = time.time()
            player = subprocess.Popen([options.jackplay, path, "tuna:in", "tn:in"], env=env)
            first = {}
            readings = {name: [] for name in plugins}
            while player.poll() is None:
                now = time.time() - start
                for name, (jalv, key, last) in plugins.items():
                    value = jalv.monitors(last).get(key, 0)
                    close = value > 0 and abs(1200 * math.log2(value / truth)) < 50
                    if close and name not in first:
                        first[name] = now
                    # After the first 1.5 s: every 0.5 s.
                    if now > 1.5 and (not readings[name] or now - readings[name][-1][0] >= 0.5):
                        readings[name].append((now, value))
                time.sleep(0.05 if len(first) < len(plugins) else 0.1)
            for name in plugins:
                if options.verbose:
                    print(label, name, " ".join("%.1f:%.4f" % r for r in readings[name]))
                values = [v for _, v in readings[name] if v > 0]
                errors = [v - truth for v in values]
                cents = [1200 * math.log2(v / truth) for v in values]
                rows.append((label, name, len(readings[name]), len(values),
                             max((abs(e) for e in errors), default=float("nan")),
                             (sum(e * e for e in errors) / len(errors)) ** 0.5 if errors else float("nan"),
                             max((abs(c) for c in cents), default=float("nan")), first.get(name, float("nan"))))
            time.sleep(0.5)
        wall = time.time() - wall0
        cpu = {name: (p[0].cpu_seconds() - cpu0[name]) / wall for name, p in plugins.items()}
    finally:
        for jalv, _, _ in plugins.values():
            jalv.stop()
        jackd.terminate(); jackd.wait(5)
    print("| signal | plugin | reads | with a frequency | max abs error (Hz) | rms error (Hz) | max abs error (cents) | first reading (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| %s | %s | %d | %d | %.4f | %.4f | %.3f | %.2f |" % row)
    print()
    for name, ratio in cpu.items():
        print(f"CPU of the jalv hosting {name}: {ratio * 100:.2f} % of one core per second of audio")


if __name__ == "__main__":
    main()
