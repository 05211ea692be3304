import Foundation
import Testing
import ToneDSP
import ToneTestSupport

/// Seeded Monte Carlo of one real sine (random phase, small DC offset) in
/// white Gaussian noise against the Cramér–Rao bound.
///
/// The RMS error over M trials scatters around its true value by about
/// 1/√(2M) (relative), so each check says how many trials back it: every
/// cell (M = `trials`) only has to stay clear of a gross failure, each SNR
/// (4M trials) and the whole table (16M trials, ±1.3 %) have to be within
/// 1.1× the bound outright. An estimator that is really 1.1× off fails the
/// pooled check by several standard deviations; this one measures 1.00–1.03×.
@Suite("ToneEstimator in white noise")
struct ToneEstimatorNoiseTests {
    static let trials = 100
    static let goal = 1.1
    /// 2.5 bins from DC (the negative-frequency image is 5 bins away), 40 Hz, 1 kHz, 20 kHz.
    static let frequencies: [Double] = [2.5 * TestSignal.binHz, 40, 1000, 20_000]
    static let snrs: [Double] = [0, 10, 20, 40]

    struct Tally {
        var trials = 0, detected = 0
        /// Σ (error / bound)², Σ error / bound, Σ (level error / its bound)².
        var normalisedSquares = 0.0, normalisedSum = 0.0, levelSquares = 0.0

        mutating func add(_ other: Tally) {
            trials += other.trials; detected += other.detected
            normalisedSquares += other.normalisedSquares; normalisedSum += other.normalisedSum
            levelSquares += other.levelSquares
        }
        /// RMS error over the bound.
        var ratio: Double { (normalisedSquares / Double(max(1, detected))).squareRoot() }
        /// Mean error over the bound.
        var bias: Double { normalisedSum / Double(max(1, detected)) }
        var levelRatio: Double { (levelSquares / Double(max(1, detected))).squareRoot() }
        /// What an RMS estimate from this many trials may exceed its true value by (3σ).
        var slack: Double { 3 / (2 * Double(max(1, detected))).squareRoot() }
    }

    /// Runs `trials` windows of one frequency at one SNR.
    static func measure(frequencyHz: Double, snrDB: Double, estimator: ToneEstimator) -> Tally {
        var random = SeededRandom(seed: UInt64(frequencyHz * 100) &* 0x9E37 &+ UInt64(snrDB))
        let levelDBFS = -20.0
        let amplitude = Decibels.amplitude(dbfs: levelDBFS)
        let eta = pow(10, snrDB / 10)
        let noiseRMS = amplitude / (2 * eta).squareRoot()
        let bound = TestSignal.cramerRaoHz(snrDB: snrDB)
        // The amplitude's bound is A/√(ηN) (relative), in dB × 20/ln 10.
        let levelBound = 20 / log(10) / (eta * Double(TestSignal.fftSize)).squareRoot()
        var tally = Tally()
        for _ in 0..<trials {
            tally.trials += 1
            let frame = TestSignal.sine(frequencyHz: frequencyHz, amplitude: amplitude, phase: random.phase(),
                                        offset: 0.01, noiseRMS: noiseRMS, random: &random)
            let reading = estimator.estimate(frame)
            guard let measured = reading.frequencyHz, let level = reading.levelDBFS else { continue }
            tally.detected += 1
            let error = (measured - frequencyHz) / bound
            tally.normalisedSquares += error * error
            tally.normalisedSum += error
            tally.levelSquares += (level - levelDBFS) * (level - levelDBFS) / (levelBound * levelBound)
        }
        return tally
    }

    /// One test over the whole table, so the pooled figure uses every trial once.
    @Test("RMS frequency error within 1.1× the Cramér–Rao bound, 0–40 dB SNR, 2.5 bins from DC to 20 kHz")
    func cramerRao() throws {
        let estimator = try TestSignal.estimator()
        var all = Tally()
        for snrDB in Self.snrs {
            var pooled = Tally()
            for frequencyHz in Self.frequencies {
                let cell = Self.measure(frequencyHz: frequencyHz, snrDB: snrDB, estimator: estimator)
                report("\(formatted(frequencyHz)) Hz at \(Int(snrDB)) dB SNR: detected \(cell.detected)/\(cell.trials), RMS error \(formatted(cell.ratio))× CRLB, bias \(formatted(cell.bias))× CRLB, level RMS error \(formatted(cell.levelRatio))× its bound")
                #expect(cell.detected == cell.trials, "\(frequencyHz) Hz at \(snrDB) dB")
                // Gross failures only: the cell's own RMS estimate scatters by ±7 %.
                #expect(cell.ratio < Self.goal * (1 + cell.slack), "\(frequencyHz) Hz at \(snrDB) dB")
                #expect(cell.levelRatio < Self.goal * (1 + cell.slack), "\(frequencyHz) Hz at \(snrDB) dB")
                // Unbiased: the mean error of M trials scatters by 1/√M bounds.
                #expect(abs(cell.bias) < 4 / Double(cell.detected).squareRoot(), "\(frequencyHz) Hz at \(snrDB) dB")
                pooled.add(cell)
            }
            report("all frequencies at \(Int(snrDB)) dB SNR: RMS error \(formatted(pooled.ratio))× CRLB over \(pooled.detected) windows")
            // 400 trials: ±3.5 % (1σ) around the true ratio.
            #expect(pooled.ratio < Self.goal * (1 + pooled.slack / 3), "\(snrDB) dB")
            #expect(pooled.levelRatio < Self.goal * (1 + pooled.slack / 3), "\(snrDB) dB")
            all.add(pooled)
        }
        report("pooled: RMS error \(formatted(all.ratio))× CRLB, level \(formatted(all.levelRatio))× its bound, over \(all.detected) windows (±\(formatted(100 * all.slack / 3)) %)")
        #expect(all.ratio < Self.goal)
        #expect(all.levelRatio < Self.goal)
    }

    @Test("the bound is what the issue quotes: 0.101 Hz at 0 dB, N = 4096, 48 kHz")
    func boundValue() {
        #expect(abs(TestSignal.cramerRaoHz(snrDB: 0) - 0.101) < 0.0005)
        #expect(abs(TestSignal.cramerRaoHz(snrDB: 40) - 0.00101) < 0.000005)
    }
}
