#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import ToneTestSupport

/// The benchmarks' noise: SplitMix64, so every run analyses the same noise.
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
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
