#!/usr/bin/env python3
"""ToneNode's LV2 analyzer against x42 tuna, offline, in one host, on the same files.

Both plugins run in `lv2read` (an offline lilv host with urid:map and the
worker; Tests/EndToEndTests/LV2/lv2read.c, which LV2TunaTests use too) on seeded signals at 48 kHz in blocks of
256 frames (a JACK period). Their control outputs are read after every
block; the table reads them every 0.5 s of audio (the method of jalv's
`monitors`), skipping the first 0.5 s after each onset. The first valid
reading is the first block after which a plugin shows a frequency within
50 cents of the truth. CPU: the host thread's CPU time inside run() (the
worker included: it runs inside schedule_work), per second of audio.

  cc -O2 -o /tmp/lv2read Tests/EndToEndTests/LV2/lv2read.c $(pkg-config --cflags --libs lilv-0 sndfile)
  scripts/build-release /tmp/stage
  Benchmarks/lv2-tuna/offline.py --lv2-path /tmp/stage/lv2 --lv2read /tmp/lv2read
"""
import argparse, math, os, struct, subprocess, tempfile

import numpy as np

RATE = 48000
TUNA = ("x42 tuna", "http://gareus.org/oss/lv2/tuna#one", [], "freq_out")
# Pitch mode with the plugin's default band (20 Hz…a quarter of the rate).
TONENODE = ("ToneNode", "urn:tonenode:lv2:analyzer", ["-c", "mode=1"], "frequency")
# Tone mode (the strongest tone, the node's default), for the rows that add it.
TONENODE_TONE = ("ToneNode, tone mode", "urn:tonenode:lv2:analyzer", ["-c", "mode=0"], "frequency")
# Pitch mode with the steady span off (`steady` 0): every reading one window, as before issue 42.
TONENODE_OFF = ("ToneNode, steady off", "urn:tonenode:lv2:analyzer", ["-c", "mode=1", "-c", "steady=0"], "frequency")
E2 = 82.40689


def write_wav(path, samples):
    """32-bit float mono WAV (no quantisation noise under the clean tones)."""
    data = np.asarray(samples, dtype="<f4").tobytes()
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack(
        "<IHHIIHH", 16, 3, 1, RATE, 4 * RATE, 4, 32) + b"data" + struct.pack("<I", len(data))
    with open(path, "wb") as f:
        f.write(header + data)


def sine(frequency, seconds, amplitude, rng):
    t = np.arange(int(seconds * RATE)) / RATE
    return amplitude * np.sin(2 * np.pi * frequency * t + rng.uniform(0, 2 * np.pi))


def noisy(frequency, seconds, snr_db, rng):
    """A −12 dBFS sine plus white Gaussian noise `snr_db` below it (over the whole band)."""
    tone = sine(frequency, seconds, 0.25, rng)
    sigma = math.sqrt(0.25 ** 2 / 2 / 10 ** (snr_db / 10))
    return tone + rng.normal(0, sigma, tone.size)


def plucked(f0, seconds, every, rng, inharmonicity=1e-4):
    """A stiff string plucked every `every` s: partials k·f0·√(1+Bk²) up to
    6 kHz, amplitudes 1/k^1.2 at random phases, each decaying faster the
    higher it is (τ = 1.5 s / (1 + 0.4k)), a 2 ms attack; peak about −6 dBFS.
    The truth is the first partial, f0·√(1+B)."""
    n = int(seconds * RATE)
    out = np.zeros(n)
    length = int(every * RATE)
    t = np.arange(length) / RATE
    for onset in range(0, n, length):
        note = np.zeros(length)
        k = 1
        while k * f0 * math.sqrt(1 + inharmonicity * k * k) < 6000:
            fk = k * f0 * math.sqrt(1 + inharmonicity * k * k)
            note += k ** -1.2 * np.exp(-t * (1 + 0.4 * k) / 1.5) * np.sin(2 * np.pi * fk * t + rng.uniform(0, 2 * np.pi))
            k += 1
        note *= np.minimum(1, t / 0.002)
        note *= 0.5 / np.max(np.abs(note))
        count = min(length, n - onset)
        out[onset:onset + count] = note[:count]
    return out, f0 * math.sqrt(1 + inharmonicity)


def vibrato(f0, seconds, cents, rate_hz, rng):
    """A −12 dBFS sine whose frequency swings ±`cents` around f0 at `rate_hz`."""
    t = np.arange(int(seconds * RATE)) / RATE
    depth = f0 * (2 ** (cents / 1200) - 1)
    phase = 2 * np.pi * f0 * t - depth / rate_hz * np.cos(2 * np.pi * rate_hz * t) + rng.uniform(0, 2 * np.pi)
    return 0.25 * np.sin(phase)


def signals(folder, seconds):
    """(label, path, truth Hz, onsets s, seconds skipped after an onset) for each seeded signal."""
    rng = np.random.default_rng(1)
    out = []
    def add(label, name, samples, truth, onsets=(0,), settle=0.5):
        path = f"{folder}/{name}.wav"
        write_wav(path, samples)
        out.append((label, path, truth, onsets, settle))
    add("clean 440 Hz, −12 dBFS", "clean440", sine(440, seconds, 0.25, rng), 440)
    add("clean E2 82.41 Hz, −12 dBFS", "clean82", sine(E2, seconds, 0.25, rng), E2)
    for snr in (30, 20, 10):
        add(f"440 Hz + white noise, SNR {snr} dB", f"noisy440-{snr}", noisy(440, seconds, snr, rng), 440)
    add("E2 82.41 Hz + white noise, SNR 20 dB", "noisy82-20", noisy(E2, seconds, 20, rng), E2)
    for name, f0 in (("E2", E2), ("A2", 110.0), ("G3", 195.9977), ("E4", 329.6276)):
        samples, truth = plucked(f0, seconds, 3, rng)
        add(f"plucked {name} {truth:.2f} Hz (B = 1e-4, every 3 s)", f"pluck-{name}", samples, truth,
            tuple(range(0, int(seconds), 3)))
    # The steady note of issue 42: middle C, read from 3 s after it starts.
    for snr in (10, 40):
        add(f"middle C 261.6256 Hz + white noise, SNR {snr} dB, from 3 s", f"steadyC-{snr}",
            noisy(261.6256, seconds, snr, rng), 261.6256, settle=3)
    add("vibrato ±20 cents at 5.5 Hz around 261.6256 Hz (error from the centre)", "vibratoC",
        vibrato(261.6256, seconds, 20, 5.5, rng), 261.6256)
    return out


def run(lv2read, env, plugin, path):
    """(cpu_s, audio_s, [(frames, value)]) of one plugin on one file."""
    _, uri, controls, port = plugin
    text = subprocess.run([lv2read, uri, path] + controls + [port], env=env, check=True,
                          capture_output=True, text=True).stdout.splitlines()
    head = text[0].split()
    rows = [(int(a), float(b)) for a, b in (line.split() for line in text[1:])]
    return float(head[2]), float(head[4]), rows


def cents(value, truth):
    return 1200 * math.log2(value / truth)


def summarise(rows, truth, onsets, seconds, settle=0.5):
    """Reads every 0.5 s (the value shown after the block that reaches it),
    skipping the first `settle` s after an onset; the first valid reading."""
    grid = [k * 0.5 for k in range(1, int(seconds / 0.5) + 1)
            if k * 0.5 - max(o for o in onsets if o <= k * 0.5) >= settle]
    reads = []
    for time in grid:
        frame = int(time * RATE)
        value = next((v for f, v in rows if f >= frame), 0.0)
        reads.append(value)
    first = next((f / RATE for f, v in rows if v > 0 and abs(cents(v, truth)) < 50), float("nan"))
    values = [v for v in reads if v > 0]
    hz = [v - truth for v in values]
    ct = [cents(v, truth) for v in values]
    rms = lambda xs: (sum(x * x for x in xs) / len(xs)) ** 0.5 if xs else float("nan")
    return dict(values=reads, reads=len(reads), valid=len(values), max_hz=max(map(abs, hz), default=float("nan")), rms_hz=rms(hz),
                max_cents=max(map(abs, ct), default=float("nan")), rms_cents=rms(ct), first=first)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lv2-path", required=True)
    parser.add_argument("--lv2read", required=True)
    parser.add_argument("--seconds", type=float, default=9)
    parser.add_argument("--tone-mode", action="store_true", help="also ToneNode in tone mode")
    parser.add_argument("--steady-off", action="store_true", help="also ToneNode with steady=0 (one window per reading)")
    parser.add_argument("--only", help="only the signals whose label contains this")
    parser.add_argument("--verbose", action="store_true", help="print each plugin's reads")
    options = parser.parse_args()
    env = dict(os.environ, LV2_PATH=f"{options.lv2_path}:/usr/lib/lv2")
    folder = tempfile.mkdtemp(prefix="tn-lv2offline-")
    plugins = (TUNA, TONENODE, TONENODE_TONE) if options.tone_mode else (TUNA, TONENODE)
    if options.steady_off:
        plugins += (TONENODE_OFF,)
    cpu = {plugin[0]: 0.0 for plugin in plugins}
    audio = 0.0
    print("| signal | plugin | reads with a frequency | max abs error (Hz) | rms error (Hz) | max abs error (cents) | rms error (cents) | first valid reading (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for label, path, truth, onsets, settle in signals(folder, options.seconds):
        if options.only and options.only not in label:
            continue
        for plugin in plugins:
            cpu_s, audio_s, rows = run(options.lv2read, env, plugin, path)
            cpu[plugin[0]] += cpu_s
            s = summarise(rows, truth, onsets, audio_s, settle)
            if options.verbose:
                print(plugin[0], " ".join("%.4f" % v for v in s["values"]))
            print("| %s | %s | %d/%d | %.4f | %.4f | %.3f | %.3f | %.3f |" % (
                label, plugin[0], s["valid"], s["reads"], s["max_hz"], s["rms_hz"], s["max_cents"], s["rms_cents"], s["first"]))
        audio += audio_s
    print()
    for name, seconds in cpu.items():
        print(f"CPU of {name} (run() and worker): {seconds / audio * 1e3:.3f} ms per second of audio")
    print(f"ratio ToneNode / x42 tuna: {cpu[TONENODE[0]] / cpu[TUNA[0]]:.3f}")


if __name__ == "__main__":
    main()
