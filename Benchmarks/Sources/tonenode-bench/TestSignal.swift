#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SplitMix64: a tiny seeded generator, so every run analyses the same noise.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal value (Box–Muller).
    mutating func nextGaussian() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

/// A sine at `levelDBFS` (peak; a full-scale sine is 0 dBFS) plus white
/// Gaussian noise of standard deviation `noiseRMS`, starting at a seeded phase.
func toneWithNoise(frequencyHz: Double, levelDBFS: Double, sampleRateHz: Double,
                   count: Int, noiseRMS: Double, seed: UInt64) -> [Float] {
    var generator = SeededGenerator(seed: seed)
    let amplitude = pow(10, levelDBFS / 20)
    let startPhase = Double.random(in: 0..<(2 * Double.pi), using: &generator)
    let radiansPerSample = 2 * Double.pi * frequencyHz / sampleRateHz
    return (0..<count).map { index in
        let tone = amplitude * sin(startPhase + radiansPerSample * Double(index))
        return Float(tone + noiseRMS * generator.nextGaussian())
    }
}
