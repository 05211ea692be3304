import Foundation
import Testing
@testable import ToneDSP

@Suite("Level sweep: THD+N and gain versus level")
struct LevelSweepAnalyzerTests {
    static func signal() -> MeasurementSignal {
        var plan = ChainAnalyzerTests.signal().plan
        plan.levelStepsDBFS = LevelSweepAnalyzer.defaultStepsDBFS
        plan.levelStepSeconds = 0.15
        return MeasurementSignal(plan: plan)
    }

    static func analyze(_ signal: MeasurementSignal, _ recording: [Float], latencyFrames: Double = 0) throws -> LevelSweep {
        try recording.withUnsafeBufferPointer {
            try LevelSweepAnalyzer.analyze(signal, recording: $0, latencyFrames: latencyFrames)
        }
    }

    /// `x + c·x³` at peak amplitude `a`: fundamental `a(1 + 3ca²/4)`, third harmonic `|c|a³/4`.
    static func cubic(a: Double, c: Double) -> (gainDB: Double, thdDB: Double) {
        let fundamental = 1 + 0.75 * c * a * a
        return (20 * log10(abs(fundamental)), 20 * log10(abs(c) * a * a / 4 / abs(fundamental)))
    }

    @Test("a wire: unity gain at every level, THD+N at float rounding (below −130 dB re the tone)")
    func wire() throws {
        let signal = Self.signal()
        let result = try Self.analyze(signal, SyntheticChain.padded(signal.stimulus, to: signal.recordingFrames))
        #expect(result.points.count == 21)
        #expect(result.points.allSatisfy { abs($0.gainDB) < 1e-4 && $0.thdPlusNoiseDB < -130 },
                "\(result.points.map { ($0.levelDBFS, $0.gainDB, $0.thdPlusNoiseDB) })")
        #expect(result.onePercentLevelDBFS == nil)
        #expect(result.oneDBCompressionLevelDBFS == nil)
    }

    @Test("a compressive cubic after a delay: gain and THD+N per step, the 1 % and 1 dB compression levels")
    func cubic() throws {
        let signal = Self.signal()
        let c = -0.3
        let recording = SyntheticChain.cubic(SyntheticChain.integerDelay(signal.stimulus, frames: 777,
                                                                          outputCount: signal.recordingFrames), c: c)
        let result = try Self.analyze(signal, recording, latencyFrames: 777)
        var worstGain = 0.0, worstTHD = 0.0
        for point in result.points {
            let truth = Self.cubic(a: Decibels.amplitude(dbfs: point.levelDBFS), c: c)
            worstGain = max(worstGain, abs(point.gainDB - truth.gainDB))
            // Below −60 dB the float recording's rounding joins the harmonic: judge where the harmonic dominates.
            if truth.thdDB > -110 { worstTHD = max(worstTHD, abs(point.thdPlusNoiseDB - truth.thdDB)) }
        }
        #expect(worstGain < 0.001, "gain: worst deviation \(worstGain) dB")
        #expect(worstTHD < 0.05, "THD+N: worst deviation \(worstTHD) dB")
        // 1 %: |c|a²/4 = 0.01·(1 + 3ca²/4) → a² = 0.04 / (|c| − 0.03 c).
        let onePercent = 20 * log10((0.04 / (abs(c) - 0.03 * c)).squareRoot())
        let measured = try #require(result.onePercentLevelDBFS)
        #expect(abs(measured - onePercent) < 0.1, "1 % at \(measured) dBFS, expected \(onePercent)")
        // 1 dB compression: 1 + 3ca²/4 = 10^(−1/20).
        let compression = 20 * log10(((1 - pow(10, -1.0 / 20)) / (0.75 * abs(c))).squareRoot())
        let measuredCompression = try #require(result.oneDBCompressionLevelDBFS)
        #expect(abs(measuredCompression - compression) < 0.3, "1 dB compression at \(measuredCompression), expected \(compression)")
    }
}
