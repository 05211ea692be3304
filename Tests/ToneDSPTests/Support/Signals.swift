import Foundation
import ToneDSP
import ToneTestSupport

/// Shared settings of the estimator tests: 48 kHz, 4096-point windows.
enum TestSignal {
    static let sampleRateHz = 48_000.0
    static let fftSize = 4096
    static var binHz: Double { sampleRateHz / Double(fftSize) }

    /// An estimator with the default detector settings, planned quickly.
    static func estimator(fftSize: Int = fftSize, lowHz: Double = 20, maxTones: Int = 1) throws -> ToneEstimator {
        try ToneEstimator(ToneEstimatorConfiguration(sampleRateHz: sampleRateHz, fftSize: fftSize, lowHz: lowHz,
                                                     maxTones: maxTones),
                          planning: .estimate)
    }

    /// `amplitude · sin(2π f n / fs + phase) + offset`, computed in double
    /// precision and rounded once to `Float`, plus optional white noise.
    static func sine(frequencyHz: Double, amplitude: Double, phase: Double, offset: Double = 0,
                     count: Int = fftSize, noiseRMS: Double = 0, random: inout SeededRandom) -> [Float] {
        sineDoubles(frequencyHz: frequencyHz, amplitude: amplitude, phase: phase, offset: offset, count: count,
                    noiseRMS: noiseRMS, random: &random).map { Float($0) }
    }

    /// The same sine left in double precision (the pitch tests' signals:
    /// `Pluck.analyze` rounds them to `Float` once, so they hold the same samples).
    static func sineDoubles(frequencyHz: Double, amplitude: Double, phase: Double, offset: Double = 0,
                            count: Int = fftSize, noiseRMS: Double = 0, random: inout SeededRandom) -> [Double] {
        let omega = 2 * Double.pi * frequencyHz / sampleRateHz
        return (0..<count).map { n in
            let noise = noiseRMS > 0 ? noiseRMS * random.gaussian() : 0
            return amplitude * sin(omega * Double(n) + phase) + offset + noise
        }
    }

    /// Harmonics of `fundamentalHz`: order h at `amplitude / h` and phase
    /// `phases[i]` (one per entry of `orders`), summed in double precision.
    static func harmonics(fundamentalHz: Double, orders: [Int], amplitude: Double, phases: [Double],
                          count: Int) -> [Double] {
        let omega = 2 * Double.pi * fundamentalHz / sampleRateHz
        return (0..<count).map { n in
            zip(orders, phases).reduce(0.0) { sum, term in
                let h = Double(term.0)
                return sum + amplitude / h * sin(omega * h * Double(n) + term.1)
            }
        }
    }

    /// Cramér–Rao bound on the standard deviation of a frequency estimate
    /// (Rife & Boorstyn): one sinusoid, N samples, SNR η = A² / (2σ²).
    static func cramerRaoHz(snrDB: Double, count: Int = fftSize) -> Double {
        let eta = pow(10, snrDB / 10)
        let n = Double(count)
        return sampleRateHz / (2 * Double.pi) * (12 / (eta * n * (n * n - 1))).squareRoot()
    }
}

extension ToneEstimator {
    func estimate(_ frame: [Float]) -> ToneReading {
        frame.withUnsafeBufferPointer { estimate($0) }
    }
}

/// Running maximum of `|value|` with a short formatter for the report lines.
struct Worst {
    private(set) var value = 0.0
    mutating func add(_ x: Double) { value = max(value, abs(x)) }
}

/// Prints one measured figure so `swift test` output carries the numbers.

func formatted(_ x: Double) -> String { String(format: "%.3g", x) }
