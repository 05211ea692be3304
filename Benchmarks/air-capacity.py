#!/usr/bin/env python3
"""What the air channel of modem-bench allows for 32 bytes in 0.43 s (issue 32, item 4).

SNR as modem-bench and ModemNoiseTests define it: full-band, the transmission's mean
power over its airtime against white noise over 0…fs/2 (fs = 48 kHz). A signal in a
band of B Hz then sees an in-band SNR of SNR·(fs/2)/B. Prints, for bands of 2–6 kHz:
the in-band SNR, Shannon's capacity, the bits 0.43 s can carry at capacity and by the
normal approximation of the finite-blocklength limit (Polyanskiy–Poor–Verdú, Gaussian
input, frame error rate 1e-3), and the lowest SNR at which 32 bytes (256 bits) or a
whole ToneNode frame (32 bytes + 5 header + 4 CRC = 328 bits) fit in 0.43 s.

    python3 Benchmarks/air-capacity.py [SNR_DB] [SECONDS]
"""
import math
import sys
from statistics import NormalDist

SNR_DB = float(sys.argv[1]) if len(sys.argv) > 1 else -11.0
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 0.43
HALF_BAND_HZ = 24_000.0
ERROR_RATE = 1e-3


def in_band(snr_db, band_hz):
    return 10 ** (snr_db / 10) * HALF_BAND_HZ / band_hz


def capacity(snr_db, band_hz):
    return band_hz * math.log2(1 + in_band(snr_db, band_hz))


def normal_approximation_bits(snr_db, band_hz, seconds, error_rate=ERROR_RATE):
    n = 2 * band_hz * seconds  # real dimensions
    g = in_band(snr_db, band_hz)
    c = 0.5 * math.log2(1 + g)
    dispersion = g * (g + 2) / (2 * (g + 1) ** 2) * math.log2(math.e) ** 2
    q = NormalDist().inv_cdf(1 - error_rate)
    return n * c - math.sqrt(n * dispersion) * q + 0.5 * math.log2(n)


def lowest_snr(bits, band_hz, seconds, carried):
    low, high = -40.0, 20.0
    for _ in range(80):
        middle = (low + high) / 2
        if carried(middle, band_hz, seconds) >= bits:
            high = middle
        else:
            low = middle
    return high


print(f"full-band SNR {SNR_DB:+g} dB, {SECONDS} s")
print("| band | in-band SNR | Shannon | bits in the time | finite-length bits (FER 1e-3) | lowest SNR, 256 bits | lowest SNR, 328 bits |")
print("|---|---|---|---|---|---|---|")
for band in [2000, 3000, 4000, 6000]:
    shannon = lambda s, b, t: capacity(s, b) * t
    print(f"| {band / 1000:g} kHz | {10 * math.log10(in_band(SNR_DB, band)):+.1f} dB | {capacity(SNR_DB, band):.0f} bit/s "
          f"| {capacity(SNR_DB, band) * SECONDS:.0f} | {normal_approximation_bits(SNR_DB, band, SECONDS):.0f} "
          f"| {lowest_snr(256, band, SECONDS, shannon):+.1f} / {lowest_snr(256, band, SECONDS, normal_approximation_bits):+.1f} dB "
          f"| {lowest_snr(328, band, SECONDS, shannon):+.1f} / {lowest_snr(328, band, SECONDS, normal_approximation_bits):+.1f} dB |")
wideband = 10 ** (SNR_DB / 10) * HALF_BAND_HZ * math.log2(math.e)
energy = 10 ** (SNR_DB / 10) * HALF_BAND_HZ * SECONDS
print(f"\nany band (B → ∞): {wideband:.0f} bit/s; needed: {256 / SECONDS:.0f} bit/s of payload ({328 / SECONDS:.0f} with header and CRC)")
print(f"energy of the frame over N0: {10 * math.log10(energy):.2f} dB; Eb/N0 {10 * math.log10(energy / 328):.2f} dB per frame bit "
      f"(328), {10 * math.log10(energy / 256):.2f} dB per payload bit")

# The room of modem-bench (RT60, reverberant energy = direct energy, first echo at 2 ms),
# for block symbols of useful length T behind a cyclic guard G, with the receiver told each
# subcarrier's channel (a genie: at an in-band SNR near 0 dB a 0.43 s frame cannot measure
# the room's few hundred in-band degrees of freedom). An echo d seconds late adds
# (1 − (d − G)/T)² of its energy to the symbol when G < d < G + T, all of it when d ≤ G, and
# the rest is interference (Steendam and Moeneclaey's OFDM result). Best T and G for a 2 kHz band.
RT60_SECONDS = 0.6
TAU = RT60_SECONDS / (6 * math.log(10))  # energy decay constant


def room_sinr(snr_db, band_hz, useful, guard, steps=4000):
    useful_echo, interference = 0.0, 0.0
    horizon = 2.0 * RT60_SECONDS
    for i in range(steps):
        d = 0.002 + (i + 0.5) * horizon / steps
        energy = math.exp(-(d - 0.002) / TAU) / TAU * horizon / steps
        a = 1.0 if d <= guard else max(0.0, 1 - (d - guard) / useful)
        useful_echo += energy * a * a
        interference += energy * (1 - a * a)
    noise = 1 / in_band(snr_db, band_hz)
    return (1 + useful_echo) / (interference + noise)


def room_bits(snr_db, band_hz, seconds, approximation=True):
    best = (0.0, 0, 0)
    for useful in [0.02, 0.04, 0.06, 0.08, 0.12, 0.16, 0.2]:
        for guard in [0.0, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08]:
            g = room_sinr(snr_db, band_hz, useful, guard)
            n = 2 * band_hz * seconds * useful / (useful + guard)
            c = 0.5 * math.log2(1 + g)
            bits = n * c
            if approximation:
                dispersion = g * (g + 2) / (2 * (g + 1) ** 2) * math.log2(math.e) ** 2
                bits += -math.sqrt(n * dispersion) * NormalDist().inv_cdf(1 - ERROR_RATE) + 0.5 * math.log2(n)
            if bits > best[0]:
                best = (bits, useful, guard)
    return best


bits, useful, guard = room_bits(SNR_DB, 2000, SECONDS)
print(f"\nroom RT60 {RT60_SECONDS} s (reverberant = direct energy) and the noise, 2 kHz, genie channel per subcarrier:")
print(f"best symbol {useful * 1000:.0f} ms + guard {guard * 1000:.0f} ms: in-band SINR "
      f"{10 * math.log10(room_sinr(SNR_DB, 2000, useful, guard)):+.1f} dB, finite-length bits (FER 1e-3) in {SECONDS} s: {bits:.0f}")
for bits_needed in [256, 328]:
    low = lowest_snr(bits_needed, 2000, SECONDS, lambda s, b, t: room_bits(s, b, t)[0])
    print(f"lowest SNR for {bits_needed} bits: {low:+.1f} dB")

# The same room for a receiver that knows only the direct sound (flat over the band, which
# the preamble and smoothing over subcarriers measure at this SNR): every echo is interference.
def direct_only_bits(snr_db, band_hz, seconds):
    g = 1 / (1 + 1 / in_band(snr_db, band_hz))
    n = 2 * band_hz * seconds
    dispersion = g * (g + 2) / (2 * (g + 1) ** 2) * math.log2(math.e) ** 2
    return n * 0.5 * math.log2(1 + g) - math.sqrt(n * dispersion) * NormalDist().inv_cdf(1 - ERROR_RATE) + 0.5 * math.log2(n)


print(f"\nthe same room, receiver knowing only the direct sound (echoes are interference), 2 kHz: "
      f"in-band SINR {10 * math.log10(1 / (1 + 1 / in_band(SNR_DB, 2000))):+.1f} dB, finite-length bits {direct_only_bits(SNR_DB, 2000, SECONDS):.0f}")
for bits_needed in [256, 328]:
    print(f"lowest SNR for {bits_needed} bits: {lowest_snr(bits_needed, 2000, SECONDS, direct_only_bits):+.1f} dB")
