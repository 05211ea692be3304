import Foundation
import Testing
import ToneTestSupport
@testable import ToneDSP

@Suite("Chain measurement on synthetic chains")
struct ChainAnalyzerTests {
    /// A short measurement (1 s sweep, 0.5 s tone) so the offline chains run quickly.
    static func signal(rateHz: Double = 48000, toneHz: Double = 1000, sweepSeconds: Double = 1) -> MeasurementSignal {
        var plan = MeasurementSignal.Plan(sampleRateHz: rateHz)
        plan.sweepSeconds = sweepSeconds
        plan.toneSeconds = 0.5
        plan.maxLatencySeconds = 0.1
        plan.toneFrequencyHz = toneHz
        return MeasurementSignal(plan: plan)
    }

    static func measure(_ signal: MeasurementSignal, _ recording: [Float]) throws -> ChainMeasurement {
        try recording.withUnsafeBufferPointer { try ChainAnalyzer.analyze(signal, recording: $0) }
    }

    @Test("a wire: latency 0, gain 0 dB, flat response, THD+N at float rounding")
    func wire() throws {
        let signal = Self.signal()
        let result = try Self.measure(signal, SyntheticChain.padded(signal.stimulus, to: signal.recordingFrames))
        #expect(abs(result.latencyFrames) < 1e-4)
        #expect(abs(result.gainDB) < 1e-4)
        #expect(abs(result.frequencyShiftHz) < 1e-6)
        #expect(result.thdPlusNoiseDB < -120)
        #expect(result.response.allSatisfy { abs($0.gainDB) < 0.01 })
        #expect(result.response.first.map { abs($0.frequencyHz - 20) < 1e-9 } == true)
        #expect(result.response.last.map { $0.frequencyHz <= 20000 && $0.frequencyHz > 19000 } == true)
    }

    @Test("whole-frame delays are found exactly", arguments: [1, 256, 1024, 4799])
    func integerDelay(frames: Int) throws {
        let signal = Self.signal()
        let recording = SyntheticChain.integerDelay(signal.stimulus, frames: frames, outputCount: signal.recordingFrames)
        let result = try Self.measure(signal, recording)
        #expect(abs(result.latencyFrames - Double(frames)) < 1e-4, "measured \(result.latencyFrames)")
    }

    @Test("fractional delays to a hundredth of a frame, with gain", arguments: [
        (37.3, -6.0), (100.5, 0.0), (256.77, 3.0), (1000.01, -20.0),
    ])
    func fractionalDelay(frames: Double, gainDB: Double) throws {
        let signal = Self.signal()
        let recording = SyntheticChain.delay(signal.stimulus, frames: frames, gain: pow(10, gainDB / 20),
                                             outputCount: signal.recordingFrames)
        let result = try Self.measure(signal, recording)
        #expect(abs(result.latencyFrames - frames) < 0.01, "measured \(result.latencyFrames) for \(frames)")
        #expect(abs(result.gainDB - gainDB) < 0.01, "gain \(result.gainDB) for \(gainDB)")
        #expect(abs(result.frequencyShiftHz) < 1e-3)
    }

    @Test("one-pole low-pass: the measured response follows the analytic one")
    func onePoleLowPass() throws {
        let signal = Self.signal()
        let a = 0.7   // −3 dB near 2.7 kHz at 48 kHz
        let recording = SyntheticChain.onePoleLowPass(
            SyntheticChain.integerDelay(signal.stimulus, frames: 300, outputCount: signal.recordingFrames), a: a)
        let result = try Self.measure(signal, recording)
        var worst = 0.0
        for point in result.response {
            let expected = SyntheticChain.onePoleResponseDB(a: a, frequencyHz: point.frequencyHz, sampleRateHz: 48000)
            worst = max(worst, abs(point.gainDB - expected))
        }
        #expect(worst < 0.05, "largest deviation from the analytic response \(worst) dB")
        let toneExpected = SyntheticChain.onePoleResponseDB(a: a, frequencyHz: 1000, sampleRateHz: 48000)
        #expect(abs(result.gainDB - toneExpected) < 0.01)
        // The filter adds its group delay to the 300, and that delay is not one
        // number: τ(ω) = (a·cos ω − a²)/(1 − 2a·cos ω + a²), a/(1−a) = 2.33
        // frames at DC, falling with frequency (−0.38 at 16 kHz). The latency
        // is the slope of a line fitted to the phase over the sweep's band
        // (2× its start to 0.8× its end); a least-squares slope, whatever its
        // (positive) weights, is a positive average of the phase's slopes
        // between the bins, so it lies between τ at the band's top and τ at its
        // bottom (one bin wider each side for the bins' rounding): closed
        // form, 299.62…302.33 frames here.
        func groupDelay(_ hz: Double) -> Double {
            let c = cos(2 * Double.pi * hz / 48000)
            return (a * c - a * a) / (1 - 2 * a * c + a * a)
        }
        let binHz = 48000.0 / Double(ChainAnalyzer.responseWindowFrames)
        let lowest = 300 + groupDelay(0.8 * signal.plan.sweepEndHz + binHz)
        let highest = 300 + groupDelay(max(0, 2 * signal.plan.sweepStartHz - binHz))
        report(String(format: "one-pole a=%.1f: latency %.4f frames, the group delay's range over the band %.4f…%.4f",
                      a, result.latencyFrames, lowest, highest))
        #expect(result.latencyFrames >= lowest && result.latencyFrames <= highest,
                "latency \(result.latencyFrames) outside the group delay's range \(lowest)…\(highest)")
    }

    @Test("an 80 Hz high-pass: below 60 Hz every 1/24-octave point reads its own value, on the analytic slope")
    func highPassBelowSixtyHertz() throws {
        let signal = Self.signal()
        let filter = SyntheticChain.Biquad.highPass(frequencyHz: 80, sampleRateHz: 48000)
        let recording = filter.run(SyntheticChain.integerDelay(signal.stimulus, frames: 300, outputCount: signal.recordingFrames))
        let result = try Self.measure(signal, recording)
        let low = result.response.filter { $0.frequencyHz < 60 }
        #expect(low.count > 10 && low.first?.frequencyHz == 20)
        for (a, b) in zip(low, low.dropFirst()) {
            // 12 dB per octave: half a dB per 1/24 octave, never one bin read twice.
            #expect(b.gainDB - a.gainDB > 0.3, "\(a.frequencyHz) Hz \(a.gainDB) dB, \(b.frequencyHz) Hz \(b.gainDB) dB")
        }
        // Within 0.3 dB (0.23 seen, at 26.7 Hz: the window's 50 ms before the pulse cut its slow ringing);
        // one 1.46 Hz bin read for three points (20.5 Hz for 20, 20.6 and 21.2) was about 0.6 dB off at 21.2 Hz.
        for point in result.response where point.frequencyHz < 1000 {
            let h = filter.response(frequencyHz: point.frequencyHz, sampleRateHz: 48000)
            let expected = 10 * log10(h.re * h.re + h.im * h.im)
            #expect(abs(point.gainDB - expected) < 0.3, "\(point.frequencyHz) Hz: \(point.gainDB) dB, analytic \(expected)")
        }
    }

    @Test("a cubic non-linearity: THD+N matches the third harmonic it adds")
    func cubicDistortion() throws {
        let signal = Self.signal()
        let c = 2.0
        let recording = SyntheticChain.cubic(SyntheticChain.padded(signal.stimulus, to: signal.recordingFrames), c: c)
        let result = try Self.measure(signal, recording)
        // sin³ = (3 sin − sin 3θ)/4: third harmonic c·A³/4 against A + 3c·A³/4.
        let amplitude = signal.amplitude
        let harmonic = c * amplitude * amplitude * amplitude / 4
        let fundamental = amplitude + 3 * harmonic
        let expected = 20 * log10(harmonic / fundamental)
        #expect(abs(result.thdPlusNoiseDB - expected) < 0.1, "THD+N \(result.thdPlusNoiseDB) dB, expected \(expected)")
        #expect(abs(result.gainDB - 20 * log10(fundamental / amplitude)) < 0.01)
        #expect(abs(result.latencyFrames) < 0.01)
    }

    @Test("white noise: THD+N is the noise against the tone")
    func noise() throws {
        let signal = Self.signal()
        let rms = 1e-3
        let recording = SyntheticChain.addNoise(SyntheticChain.padded(signal.stimulus, to: signal.recordingFrames),
                                                rms: rms, seed: 5)
        let result = try Self.measure(signal, recording)
        let expected = 20 * log10(rms / (signal.amplitude / 2.0.squareRoot()))
        #expect(abs(result.thdPlusNoiseDB - expected) < 0.2, "THD+N \(result.thdPlusNoiseDB), expected \(expected)")
        #expect(abs(result.latencyFrames) < 0.01)
        #expect(abs(result.gainDB) < 0.01)
    }

    @Test("a chain that shifts the tone: the shift is measured")
    func frequencyShift() throws {
        // Play the measurement at 48 kHz into a "resampler" that reads it 0.1 % fast:
        // simulated by measuring a signal made for 48048 Hz as if it ran at 48 kHz.
        let played = Self.signal(rateHz: 48000)
        var fastPlan = played.plan
        fastPlan.sampleRateHz = 48000 / 1.001
        fastPlan.sweepEndHz = played.plan.sweepEndHz
        let fast = MeasurementSignal(plan: fastPlan)
        let recording = SyntheticChain.padded(fast.stimulus, to: played.recordingFrames + 1000)
        let tone = try recording.withUnsafeBufferPointer {
            try ChainAnalyzer.analyzeTone(played, recording: $0, latencyFrames: 0)
        }
        let shift = tone.frequencyHz - 1000
        #expect(abs(shift - 1000 * 0.001) < 0.01, "shift \(shift) Hz")
    }

    @Test("a dropout in the returned tone is counted as a glitch; steady distortion and noise are not")
    func glitches() throws {
        let signal = Self.signal()
        var recording = SyntheticChain.padded(signal.stimulus, to: signal.recordingFrames)
        #expect(try Self.measure(signal, recording).toneGlitches == 0)
        #expect(try Self.measure(signal, SyntheticChain.cubic(recording, c: 2)).toneGlitches == 0)
        #expect(try Self.measure(signal, SyntheticChain.addNoise(recording, rms: 1e-3, seed: 9)).toneGlitches == 0)
        // One lost 256-frame period in the middle of the tone: silence where it was.
        let middle = signal.toneStartFrame + signal.toneFrames / 2
        for n in middle..<(middle + 256) { recording[n] = 0 }
        let result = try Self.measure(signal, recording)
        #expect((1...3).contains(result.toneGlitches), "glitches \(result.toneGlitches)")
    }

    @Test("silence on `in` is an error, not a number")
    func silence() {
        let signal = Self.signal()
        let recording = [Float](repeating: 0, count: signal.recordingFrames)
        #expect(throws: ChainAnalyzer.Failure.noSignal) { try Self.measure(signal, recording) }
    }

    @Test("a recording shorter than the measurement is an error")
    func shortRecording() {
        let signal = Self.signal()
        #expect(throws: ChainAnalyzer.Failure.self) { try Self.measure(signal, Array(signal.stimulus.prefix(1000))) }
    }

    @Test("sweep ends below Nyquist at low sample rates")
    func lowRate() throws {
        let plan = MeasurementSignal.Plan(sampleRateHz: 22050)
        #expect(plan.sweepEndHz < 11025)
        #expect(plan.problem == nil)
        var bad = plan
        bad.toneFrequencyHz = 12000
        #expect(bad.problem != nil)
    }
}
