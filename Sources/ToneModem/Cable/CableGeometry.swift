#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ToneDSP

/// The time and frequency layout of a cable transmission at one sample rate.
///
/// A transmission is: a chirp (sync), a gap, two identical training symbols
/// (per-carrier channel and noise), one header symbol (BPSK, rate 1/2: the
/// plan, the message's length and CRC-32), then the data frames, each
/// `CablePlan.symbolsPerFrame` OFDM symbols. Every OFDM symbol is an FFT
/// block of `fftSize` samples behind a cyclic prefix of `prefixSamples`; the
/// carriers are the FFT bins from 200 Hz to 20 kHz (about 23 Hz apart).
public struct CableGeometry: Sendable {
    public static let lowHz = 200.0
    public static let highHz = 20_000.0

    public let sampleRateHz: Double
    /// Samples per FFT block: about 43 ms at every rate.
    public let fftSize: Int
    /// Cyclic prefix: absorbs a channel's impulse response and timing error up to half of it.
    public let prefixSamples: Int
    /// FFT bin of the first carrier.
    public let firstBin: Int
    public let carrierCount: Int

    /// nil when `sampleRateHz` cannot carry 20 kHz (below 42 kHz) or is above 400 kHz.
    public init?(sampleRateHz: Double) {
        guard sampleRateHz.isFinite, sampleRateHz >= 42_000, sampleRateHz <= 400_000 else { return nil }
        self.sampleRateHz = sampleRateHz
        var size = 256
        while Double(size) < sampleRateHz / 25 { size <<= 1 }
        fftSize = size
        prefixSamples = size / 32
        let spacing = sampleRateHz / Double(size)
        firstBin = Int((Self.lowHz / spacing).rounded(.up))
        carrierCount = Int((Self.highHz / spacing).rounded(.down)) - firstBin + 1
    }

    /// Why `sampleRateHz` cannot carry this profile, or nil.
    public static func problem(sampleRateHz: Double) -> String? {
        if CableGeometry(sampleRateHz: sampleRateHz) != nil { return nil }
        return "profile cable needs a sample rate from 42000 to 400000 Hz (energy up to 20 kHz)"
    }

    public var symbolSamples: Int { fftSize + prefixSamples }
    public var chirpSamples: Int { fftSize }
    public var gapSamples: Int { fftSize / 4 }
    /// Sample where OFDM symbol `index` starts (0, 1: training; 2: header; 3…: data), prefix included.
    public func symbolStart(_ index: Int) -> Int { chirpSamples + gapSamples + index * symbolSamples }
    public static let firstDataSymbol = 3

    /// Frequency of carrier `index`.
    public func carrierHz(_ index: Int) -> Double { Double(firstBin + index) * sampleRateHz / Double(fftSize) }

    /// The sync chirp, 200 Hz to 20 kHz, with raised-cosine edges (unit peak).
    public func chirp() -> [Double] {
        let count = chirpSamples
        let seconds = Double(count) / sampleRateHz
        let rate = (Self.highHz - Self.lowHz) / seconds
        let taper = count / 16
        return (0..<count).map { index in
            let time = Double(index) / sampleRateHz
            let phase = 2 * Double.pi * (Self.lowHz * time + rate * time * time / 2)
            let edge = min(index, count - 1 - index)
            let gain = edge >= taper ? 1 : 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(taper))
            return gain * sin(phase)
        }
    }

    /// The known training value of carrier `index`: QPSK of unit magnitude, pseudo-random (low crest factor).
    public func trainingValue(_ index: Int) -> Complex {
        var state = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491
        state ^= state >> 29
        state = state &* 0xBF58_476D_1CE4_E5B9
        state ^= state >> 32
        let half = 0.5.squareRoot()
        return Complex(state & 1 == 0 ? half : -half, state & 2 == 0 ? half : -half)
    }
}
