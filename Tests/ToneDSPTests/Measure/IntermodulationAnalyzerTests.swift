import Foundation
import Testing
@testable import ToneDSP

@Suite("Intermodulation: SMPTE and CCIF")
struct IntermodulationAnalyzerTests {
    static func signal() -> MeasurementSignal {
        var plan = ChainAnalyzerTests.signal().plan
        plan.imdSeconds = 1
        return MeasurementSignal(plan: plan)
    }

    static func analyze(_ signal: MeasurementSignal, _ recording: [Float], latencyFrames: Double = 0) throws
        -> IntermodulationMeasurement {
        try recording.withUnsafeBufferPointer {
            try IntermodulationAnalyzer.analyze(signal, recording: $0, latencyFrames: latencyFrames)
        }
    }

    @Test("x + c2·x² + c3·x³ after a delay: SMPTE and CCIF d2, d3 as computed")
    func polynomial() throws {
        let signal = Self.signal()
        let c2 = 0.01, c3 = 0.01
        let delayed = SyntheticChain.integerDelay(signal.stimulus, frames: 333, outputCount: signal.recordingFrames)
        let result = try Self.analyze(signal, SyntheticChain.polynomial(delayed, [1, c2, c3]), latencyFrames: 333)
        let pairs = IntermodulationAnalyzer.tonePairs(signal.plan)
        let a1 = pairs[0].lowAmplitude, a2 = pairs[0].highAmplitude
        // x²: sidebands 7k ± 60 of c2·A1·A2 each; x³: 7k ± 120 of 3c3·A1²·A2/4 each;
        // the 7 kHz tone itself grows by c3(3A2²/4 + 3A1²/2).
        let high = a2 * (1 + c3 * (0.75 * a2 * a2 + 1.5 * a1 * a1))
        let smpte = 20 * log10(((2 * c2 * a1 * a2) * (2 * c2 * a1 * a2) + (1.5 * c3 * a1 * a1 * a2) * (1.5 * c3 * a1 * a1 * a2)).squareRoot() / high)
        #expect(abs(result.smpteDB - smpte) < 0.05, "SMPTE \(result.smpteDB) dB, expected \(smpte)")
        // CCIF, equal tones of A: d2 = c2·A² against 2A·(1 + 9c3A²/4); d3 = 2·3c3A³/4 against the same.
        let a = pairs[1].lowAmplitude
        let sum = 2 * a * (1 + 2.25 * c3 * a * a)
        let d2 = 20 * log10(c2 * a * a / sum), d3 = 20 * log10(1.5 * c3 * a * a * a / sum)
        #expect(abs((result.ccifD2DB ?? 0) - d2) < 0.05, "d2 \(result.ccifD2DB ?? 0) dB, expected \(d2)")
        #expect(abs((result.ccifD3DB ?? 0) - d3) < 0.05, "d3 \(result.ccifD3DB ?? 0) dB, expected \(d3)")
    }

    @Test("a float32 wire: every product below −130 dB")
    func wire() throws {
        let signal = Self.signal()
        let result = try Self.analyze(signal, SyntheticChain.padded(signal.stimulus, to: signal.recordingFrames))
        #expect(result.smpteDB < -130, "SMPTE \(result.smpteDB)")
        #expect((result.ccifD2DB ?? 0) < -130 && (result.ccifD3DB ?? 0) < -130, "\(result.ccifProducts)")
    }
}
