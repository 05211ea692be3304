#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ToneDSP

/// ToneNode's frequency error against the Cramér–Rao bound: seeded Monte
/// Carlo of one real sine (random phase) in white Gaussian noise.
///
/// σ_f = (fs/2π)·√(12 / (η·N·(N²−1))), η = A²/(2σ²) the per-sample SNR.
struct CramerRaoBenchmark {
    var sampleRateHz = 48_000.0
    var fftSize = 4096
    var trials = 500
    var snrsDB: [Double] = [0, 10, 20, 30, 40]
    /// 2.5 bins from DC (29.3 Hz) and 40 Hz (3.4 bins) at N = 4096, 48 kHz, where
    /// the negative-frequency image biases FFT interpolators; then up to 20 kHz.
    var frequenciesHz: [Double] = [2.5 * 48_000 / 4096, 40, 100, 1000, 20_000]
    var levelDBFS = -20.0
    var offset = 0.0
    /// Run the estimator as it was before issue 3 (`BaselineToneEstimator`) instead.
    var baseline = false

    struct Cell {
        var frequencyHz: Double
        var snrDB: Double
        var detected: Int
        var trials: Int
        var rmsErrorHz: Double
        var boundHz: Double
        var biasHz: Double
        var rmsLevelErrorDB: Double
        var ratio: Double { rmsErrorHz / boundHz }
    }

    func boundHz(snrDB: Double) -> Double {
        let eta = pow(10, snrDB / 10)
        let n = Double(fftSize)
        return sampleRateHz / (2 * Double.pi) * (12 / (eta * n * (n * n - 1))).squareRoot()
    }

    func run() throws -> [Cell] {
        let configuration = ToneEstimatorConfiguration(sampleRateHz: sampleRateHz, fftSize: fftSize)
        let current = try ToneEstimator(configuration, planning: .estimate)
        let old = try BaselineToneEstimator(configuration, planning: .estimate)
        let estimate = { (frame: UnsafeBufferPointer<Float>) in
            baseline ? old.estimate(frame) : current.estimate(frame)
        }
        let amplitude = pow(10, levelDBFS / 20)
        var frame = [Float](repeating: 0, count: fftSize)
        var cells: [Cell] = []
        for snrDB in snrsDB {
            for frequencyHz in frequenciesHz {
                var generator = SeededGenerator(seed: 0xC71B ^ UInt64(frequencyHz * 16) &* 131 ^ UInt64(bitPattern: Int64(snrDB)))
                let noiseRMS = amplitude / (2 * pow(10, snrDB / 10)).squareRoot()
                let omega = 2 * Double.pi * frequencyHz / sampleRateHz
                var detected = 0
                var sumError = 0.0, sumSquares = 0.0, sumLevelSquares = 0.0
                for _ in 0..<trials {
                    let phase = Double.random(in: 0..<(2 * Double.pi), using: &generator)
                    for index in 0..<fftSize {
                        frame[index] = Float(amplitude * sin(omega * Double(index) + phase)
                                             + offset + noiseRMS * generator.nextGaussian())
                    }
                    let reading = frame.withUnsafeBufferPointer { estimate($0) }
                    guard let measured = reading.frequencyHz, let level = reading.levelDBFS else { continue }
                    detected += 1
                    let error = measured - frequencyHz
                    sumError += error
                    sumSquares += error * error
                    sumLevelSquares += (level - levelDBFS) * (level - levelDBFS)
                }
                let count = Double(max(1, detected))
                cells.append(Cell(frequencyHz: frequencyHz, snrDB: snrDB, detected: detected, trials: trials,
                                  rmsErrorHz: (sumSquares / count).squareRoot(), boundHz: boundHz(snrDB: snrDB),
                                  biasHz: sumError / count, rmsLevelErrorDB: (sumLevelSquares / count).squareRoot()))
            }
        }
        return cells
    }
}

extension CramerRaoBenchmark {
    /// The markdown table: one row per SNR, one column per frequency, each
    /// cell the RMS error over the bound and the mean error (bias) over the
    /// bound; then all frequencies pooled.
    func markdown(_ cells: [Cell]) -> String {
        func hz(_ value: Double) -> String { value >= 1000 ? "\(number(value / 1000)) kHz" : "\(number(value)) Hz" }
        var lines = ["| SNR | CRLB | " + frequenciesHz.map(hz).joined(separator: " | ") + " | all |",
                     "|---|---|" + String(repeating: "---|", count: frequenciesHz.count + 1)]
        for snrDB in snrsDB {
            let row = cells.filter { $0.snrDB == snrDB }
            let text = row.map { String(format: "%.3f× (bias %+.3f)", $0.ratio, $0.biasHz / $0.boundHz) }
            let detected = row.reduce(0) { $0 + $1.detected }
            let pooled = (row.reduce(0.0) { $0 + $1.rmsErrorHz * $1.rmsErrorHz * Double($1.detected) }
                          / Double(max(1, detected))).squareRoot() / boundHz(snrDB: snrDB)
            let missed = row.reduce(0) { $0 + $1.trials - $1.detected }
            lines.append("| \(Int(snrDB)) dB | " + String(format: "%.3g Hz", boundHz(snrDB: snrDB)) + " | "
                         + text.joined(separator: " | ") + String(format: " | %.3f×", pooled)
                         + (missed > 0 ? " (\(missed) missed)" : "") + " |")
        }
        return lines.joined(separator: "\n")
    }
}

/// `tonenode-bench crlb [TRIALS [F1,F2,… [SNR1,SNR2,… [OFFSET]]]] [--baseline]`: only this
/// table, for experiments; `--baseline` runs the estimator as it was before issue 3.
func printCramerRaoTable() {
    var benchmark = CramerRaoBenchmark()
    benchmark.baseline = CommandLine.arguments.contains("--baseline")
    let arguments = CommandLine.arguments.drop { $0 != "crlb" }.dropFirst().filter { $0 != "--baseline" }
    if let trials = arguments.first.flatMap({ Int($0) }), trials > 0 { benchmark.trials = trials }
    if arguments.count >= 2 { benchmark.frequenciesHz = arguments[arguments.startIndex + 1].split(separator: ",").compactMap { Double($0) } }
    if arguments.count >= 3 { benchmark.snrsDB = arguments[arguments.startIndex + 2].split(separator: ",").compactMap { Double($0) } }
    if arguments.count >= 4 { benchmark.offset = Double(arguments[arguments.startIndex + 3]) ?? 0 }
    let cells: [CramerRaoBenchmark.Cell]
    do { cells = try benchmark.run() } catch { fail("\(error)") }
    print(benchmark.markdown(cells))
}
