import Foundation
import Testing
@testable import ToneDSP

@Suite("Crosstalk matrix")
struct CrosstalkAnalyzerTests {
    @Test("known leaks between three channels: within 0.5 dB down to −100 dB, flat and filtered")
    func knownLeaks() throws {
        var plan = ChainAnalyzerTests.signal().plan
        plan.crosstalkChannels = 3
        let signal = MeasurementSignal(plan: plan)
        let outputs = (0..<3).map { signal.stimulus(channel: $0) }
        // in_i = out_i (delayed 100 frames) + Σ leak_ij · out_j; leak 1←0 −60 dB, 2←0 −100 dB,
        // 0←1 −80 dB through a one-pole low-pass (a = 0.7), everything else none.
        let a = 0.7
        func delayed(_ x: [Float]) -> [Float] { SyntheticChain.integerDelay(x, frames: 100, outputCount: signal.recordingFrames) }
        let d = outputs.map(delayed)
        let lowPassed = SyntheticChain.onePoleLowPass(d[1], a: a)
        let inputs: [[Float]] = (0..<3).map { i in
            (0..<signal.recordingFrames).map { n in
                var v = Double(d[i][n])
                if i == 1 { v += 1e-3 * Double(d[0][n]) }
                if i == 2 { v += 1e-5 * Double(d[0][n]) }
                if i == 0 { v += 1e-4 * Double(lowPassed[n]) }
                return Float(v)
            }
        }
        let matrix = try inputs[0].withUnsafeBufferPointer { r0 in
            try inputs[1].withUnsafeBufferPointer { r1 in
                try inputs[2].withUnsafeBufferPointer { r2 in try CrosstalkAnalyzer.analyze(signal, recordings: [r0, r1, r2]) }
            }
        }
        #expect(matrix.paths.count == 6)
        func worstDeviation(_ driven: Int, _ measured: Int, _ expected: (Double) -> Double) throws -> Double {
            let path = try #require(matrix.path(driven: driven, measured: measured))
            return path.points.map { abs($0.levelDB - expected($0.frequencyHz)) }.max() ?? .infinity
        }
        #expect(try worstDeviation(0, 1) { _ in -60 } < 0.5)
        #expect(try worstDeviation(0, 2) { _ in -100 } < 0.5)
        let filtered = try worstDeviation(1, 0) { -80 + SyntheticChain.onePoleResponseDB(a: a, frequencyHz: $0, sampleRateHz: 48000) }
        #expect(filtered < 0.5, "filtered leak: worst deviation \(filtered) dB")
        #expect(try #require(matrix.path(driven: 2, measured: 0)).worstDB < -140)
    }
}
