#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One point of a measured spectrum kept for a picture: a frequency and a level in dB
/// (what the dB refers to is said by the measurement that holds it).
public struct SpectrumLine: Sendable, Equatable {
    public var frequencyHz: Double
    public var levelDB: Double

    public init(frequencyHz: Double, levelDB: Double) {
        self.frequencyHz = frequencyHz
        self.levelDB = levelDB
    }

    /// The amplitude spectrum of `x` as sine peaks (a sine of amplitude A reads A
    /// at its bin), from one Hann-squared window over the largest power of two
    /// of samples `x` holds, bins from `lowHz` up to Nyquist, in dB re `reference`.
    static func hannSquaredSpectrum(_ x: [Double], sampleRateHz: Double, lowHz: Double, reference: Double) -> [SpectrumLine] {
        var size = 1
        while size * 2 <= x.count { size *= 2 }
        guard size >= 1024, let fft = DoubleFFT(size: size) else { return [] }
        var windowSum = 0.0
        for n in 0..<size {
            let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(size))
            fft.real[n] = x[n] * hann * hann
            windowSum += hann * hann
        }
        fft.forward()
        let binHz = sampleRateHz / Double(size)
        return (Int((lowHz / binHz).rounded(.up))...(size / 2)).map { k in
            let re = fft.bins[2 * k], im = fft.bins[2 * k + 1]
            let amplitude = 2 * (re * re + im * im).squareRoot() / windowSum
            return SpectrumLine(frequencyHz: Double(k) * binHz, levelDB: 20 * log10(max(amplitude / reference, 1e-15)))
        }
    }
}
