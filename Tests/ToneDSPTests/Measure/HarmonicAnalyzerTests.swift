import Foundation
import Testing
@testable import ToneDSP

@Suite("Harmonics by order, phase and group delay from one sweep")
struct HarmonicAnalyzerTests {
    static func analyze(_ signal: MeasurementSignal, _ recording: [Float])
        throws -> (ChainMeasurement, HarmonicAnalysis) {
        try recording.withUnsafeBufferPointer { buffer in
            let deconvolution = try SweepDeconvolution(signal, recording: buffer)
            let chain = try ChainAnalyzer.analyze(signal, recording: buffer, deconvolution: deconvolution)
            return (chain, HarmonicAnalyzer.analyze(signal, deconvolution: deconvolution,
                                                    latencyFrames: chain.latencyFrames))
        }
    }

    /// Harmonic amplitudes (against the input amplitude A) and phases (degrees) of
    /// `x + c2·x² + c3·x³ + c5·x⁵` for `x = A·sin θ`:
    /// sin² = (1 − cos 2θ)/2, sin³ = (3 sin θ − sin 3θ)/4, sin⁵ = (10 sin θ − 5 sin 3θ + sin 5θ)/16.
    static func expected(a: Double, c2: Double, c3: Double, c5: Double) -> [Int: (db: Double, degrees: Double)] {
        let fundamental = 1 + 0.75 * c3 * a * a + 10.0 / 16 * c5 * pow(a, 4)
        let h2 = c2 * a / 2                                  // −cos 2θ = sin(2θ − 90°)
        let h3 = -(c3 * a * a / 4 + 5.0 / 16 * c5 * pow(a, 4))   // on sin 3θ
        let h5 = c5 * pow(a, 4) / 16
        func entry(_ value: Double, _ degrees: Double) -> (Double, Double) {
            (20 * log10(abs(value) / fundamental), value < 0 ? HarmonicAnalyzer.wrappedDegrees((degrees + 180) * Double.pi / 180) : degrees)
        }
        return [2: entry(h2, -90), 3: entry(h3, 0), 5: entry(h5, 0)]
    }

    @Test("a memoryless polynomial: H2, H3, H5 levels within 0.1 dB down to −120 dB, phases, no H4",
          arguments: [0.0, 137.0, 411.37])
    func polynomial(delayFrames: Double) throws {
        // The default 2 s sweep: H5 at −120 dB sits 20 dB above the float32 recording's rounding there.
        let signal = ChainAnalyzerTests.signal(sweepSeconds: 2)
        let a = signal.amplitude
        // H2 −40 dB, H3 −80 dB, H5 −120 dB against the fundamental at −12 dBFS.
        let c2 = 2 * 0.01 / a, c3 = -4 * 1e-4 / (a * a), c5 = 16 * 1e-6 / pow(a, 4)
        let delayed = delayFrames == 0
            ? SyntheticChain.padded(signal.stimulus, to: signal.recordingFrames)
            : SyntheticChain.delay(signal.stimulus, frames: delayFrames, outputCount: signal.recordingFrames)
        let (chain, result) = try Self.analyze(signal, SyntheticChain.polynomial(delayed, [1, c2, c3, 0, c5]))
        #expect(abs(chain.latencyFrames - delayFrames) < 0.01)
        let truth = Self.expected(a: a, c2: c2, c3: c3, c5: c5)
        for order in [2, 3, 5] {
            let points = try #require(result.orders.first { $0.order == order }?.points)
            #expect(points.count > 20)
            let (db, degrees) = truth[order]!
            let worstDB = points.map { abs($0.levelDB - db) }.max() ?? .infinity
            let worstDegrees = points.map { abs(HarmonicAnalyzer.wrappedDegrees(($0.phaseDegrees - degrees) * Double.pi / 180)) }.max() ?? .infinity
            #expect(worstDB < 0.1, "H\(order): expected \(db) dB, worst deviation \(worstDB) dB")
            #expect(worstDegrees < 1, "H\(order): expected \(degrees)°, worst deviation \(worstDegrees)°")
        }
        let h4 = try #require(result.orders.first { $0.order == 4 }?.points)
        #expect(h4.allSatisfy { $0.levelDB < -140 }, "H4 \(h4.map(\.levelDB).max() ?? 0) dB")
        let expectedTHD = 10 * log10([2, 3, 5].map { pow(10, truth[$0]!.db / 10) }.reduce(0, +))
        let thd1k = try #require(result.thd.min { abs($0.frequencyHz - 1000) < abs($1.frequencyHz - 1000) })
        #expect(abs(thd1k.thdDB - expectedTHD) < 0.01)
    }

    @Test("a peaking biquad after a delay: gain within 0.01 dB, phase, group delay within 0.01 ms")
    func biquad() throws {
        let signal = ChainAnalyzerTests.signal()
        let rate = 48000.0
        let filter = SyntheticChain.Biquad.peaking(frequencyHz: 1000, gainDB: 6, q: 1, sampleRateHz: rate)
        let delayFrames = 300
        let recording = filter.run(SyntheticChain.integerDelay(signal.stimulus, frames: delayFrames,
                                                               outputCount: signal.recordingFrames))
        let (chain, result) = try Self.analyze(signal, recording)
        var worstDB = 0.0, worstDegrees = 0.0, worstMs = 0.0
        for point in result.linear where point.frequencyHz >= 40 && point.frequencyHz <= 18000 {
            let h = filter.response(frequencyHz: point.frequencyHz, sampleRateHz: rate)
            let db = 10 * log10(h.re * h.re + h.im * h.im)
            // The measured phase has the measured latency removed; put the rest of the 300 frames back.
            let omega = 2 * Double.pi * point.frequencyHz / rate
            let measured = point.phaseDegrees * Double.pi / 180 + omega * (Double(delayFrames) - chain.latencyFrames)
            let degrees = abs(HarmonicAnalyzer.wrappedDegrees(measured - atan2(h.im, h.re)))
            let ms = (Double(delayFrames) + filter.groupDelayFrames(frequencyHz: point.frequencyHz, sampleRateHz: rate)) / rate * 1000
            worstDB = max(worstDB, abs(point.gainDB - db))
            worstDegrees = max(worstDegrees, degrees)
            worstMs = max(worstMs, abs(point.groupDelayMs - ms))
        }
        #expect(worstDB < 0.01, "gain: worst deviation \(worstDB) dB")
        #expect(worstDegrees < 0.1, "phase: worst deviation \(worstDegrees)°")
        #expect(worstMs < 0.01, "group delay: worst deviation \(worstMs) ms")
        let loudest = result.orders.flatMap(\.points).map(\.levelDB).max() ?? 0
        // The linear response's leak into the harmonics' windows is subtracted as if its
        // impulse response were short; a resonance leaves a little (measured −114 dB).
        #expect(loudest < -110, "a linear filter shows no harmonics: loudest \(loudest) dB")
    }

    @Test("a wire: the impulse response is the reference pulse, peak 1 at the latency")
    func wireImpulse() throws {
        let signal = ChainAnalyzerTests.signal()
        let (_, result) = try Self.analyze(signal, SyntheticChain.integerDelay(signal.stimulus, frames: 64,
                                                                               outputCount: signal.recordingFrames))
        let peak = try #require(result.impulseResponse.indices.max { abs(result.impulseResponse[$0]) < abs(result.impulseResponse[$1]) })
        #expect(result.impulseStartFrame + peak == 64)
        #expect(abs(result.impulseResponse[peak] - 1) < 1e-3)
    }
}
