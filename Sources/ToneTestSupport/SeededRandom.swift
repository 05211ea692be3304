import Foundation

/// xoshiro256** seeded through SplitMix64: fast, good statistics, and the same
/// sequence on every machine, so a failing test reproduces from its seed.
public struct SeededRandom: RandomNumberGenerator {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64
    /// The second Box–Muller output, kept for the next call.
    private var spareGaussian: Double?

    public init(seed: UInt64) {
        var splitMix = SplitMix64(seed: seed)
        s0 = splitMix.next(); s1 = splitMix.next(); s2 = splitMix.next(); s3 = splitMix.next()
    }

    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Standard normal deviate (Box–Muller, both outputs used).
    public mutating func gaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        let u1 = 1 - uniform()                     // (0, 1]: log stays finite
        let u2 = uniform()
        let radius = (-2 * log(u1)).squareRoot()
        spareGaussian = radius * sin(2 * Double.pi * u2)
        return radius * cos(2 * Double.pi * u2)
    }

    /// A phase uniform in [0, 2π).
    public mutating func phase() -> Double { 2 * Double.pi * uniform() }
}

/// Pink (1/f) noise by Paul Kellet's refined filter: a sum of first-order
/// low-passes fed with white noise, within ±0.05 dB of 1/f above ~9 Hz at
/// 44.1–48 kHz. Below that it levels off, so the stream is stationary.
public struct PinkNoise {
    private var random: SeededRandom
    private var b0 = 0.0, b1 = 0.0, b2 = 0.0, b3 = 0.0, b4 = 0.0, b5 = 0.0, b6 = 0.0

    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        // Let the slowest pole (τ ≈ 880 samples) settle from the zero state.
        for _ in 0..<20_000 { _ = next() }
    }

    /// Next sample; its RMS is about 3.3 for unit-variance white input.
    public mutating func next() -> Double {
        let white = random.gaussian()
        b0 = 0.99886 * b0 + white * 0.0555179
        b1 = 0.99332 * b1 + white * 0.0750759
        b2 = 0.96900 * b2 + white * 0.1538520
        b3 = 0.86650 * b3 + white * 0.3104856
        b4 = 0.55000 * b4 + white * 0.5329522
        b5 = -0.7616 * b5 - white * 0.0168980
        let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362
        b6 = white * 0.115926
        return pink
    }
}
