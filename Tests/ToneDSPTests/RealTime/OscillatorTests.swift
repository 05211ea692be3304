import Foundation
import Testing
import ToneDSP
import ToneTestSupport

extension Oscillator {
    /// Renders `frames` samples and returns them.
    mutating func render(frames: Int) -> [Float] {
        var out = [Float](repeating: .nan, count: frames)
        out.withUnsafeMutableBufferPointer { render(into: $0.baseAddress!, frames: frames) }
        return out
    }
}

@Suite("Oscillator")
struct OscillatorTests {
    static let sampleRateHz = TestSignal.sampleRateHz

    // MARK: - Phase

    /// A glide requested at a sample position.
    struct Event {
        var frame: Int
        var frequencyHz: Double
        var levelDBFS: Double
    }

    /// Renders `total` frames, applying each event at its frame, in chunks of
    /// the sizes `nextChunk` returns (cut at events).
    static func render(total: Int, events: [Event], rampFrames: Int, startPhase: UInt64,
                       nextChunk: () -> Int) -> (samples: [Float], oscillator: Oscillator) {
        var oscillator = Oscillator(rampFrames: rampFrames)
        oscillator.reset(increment: Oscillator.increment(frequencyHz: 440, sampleRateHz: sampleRateHz),
                         amplitude: Decibels.amplitude(dbfs: -12), phase: startPhase)
        var samples: [Float] = []
        samples.reserveCapacity(total)
        var pending = events[...]
        while samples.count < total {
            while let event = pending.first, event.frame == samples.count {
                oscillator.glide(
                    toIncrement: Oscillator.increment(frequencyHz: event.frequencyHz, sampleRateHz: sampleRateHz),
                    amplitude: Decibels.amplitude(dbfs: event.levelDBFS))
                pending = pending.dropFirst()
            }
            let limit = min(total, pending.first?.frame ?? total)
            samples += oscillator.render(frames: min(nextChunk(), limit - samples.count))
        }
        return (samples, oscillator)
    }

    @Test("rendering in random chunks is bit-identical to rendering in one go, through glides")
    func chunkInvariance() {
        let total = 200_000
        let events = [
            Event(frame: 10_000, frequencyHz: 1234.5, levelDBFS: -6),
            Event(frame: 10_100, frequencyHz: 30, levelDBFS: -30),   // retargets mid-ramp
            Event(frame: 90_001, frequencyHz: 19_999.9, levelDBFS: -1),
            Event(frame: 150_000, frequencyHz: 19_999.9, levelDBFS: -120),
        ]
        let startPhase: UInt64 = 0x0123_4567_89AB_CDEF
        let whole = Self.render(total: total, events: events, rampFrames: 333, startPhase: startPhase) { .max }
        var random = SeededRandom(seed: 0x05C1_0001)
        let chunked = Self.render(total: total, events: events, rampFrames: 333, startPhase: startPhase) {
            Int.random(in: 1...1024, using: &random)
        }
        #expect(whole.samples == chunked.samples)
        #expect(whole.oscillator.phase == chunked.oscillator.phase)
        #expect(whole.samples.allSatisfy { $0.isFinite })
    }

    /// The phase after n samples is n·increment mod 2^64, bit for bit.
    ///
    /// That is the whole no-drift argument: each sample adds the same integer
    /// with wrapping addition, which is exact, so by induction the phase after
    /// n samples is `start + n·d mod 2^64` for every n — after 1e9 samples as
    /// after 10. The only difference from the ideal phase `n·f/fs` is the
    /// rounding of `d` itself (at most 2^-65 cycle per sample): a fixed
    /// frequency offset below fs·2^-65 ≈ 1.3e-15 Hz, i.e. 2.7e-11 cycle after
    /// 1e9 samples, not an error that grows with rounding at every step the way
    /// a floating-point phase accumulator does. The test below checks the
    /// identity on a million samples in random chunks, then checks that a
    /// window starting at n = 1e9 still reads the exact frequency.
    @Test("phase after n samples is exactly n·increment mod 2^64", arguments: [440.0, 997.0, 12_345.678, 23_999.0])
    func phaseIsExact(frequencyHz: Double) {
        let increment = Oscillator.increment(frequencyHz: frequencyHz, sampleRateHz: Self.sampleRateHz)
        var oscillator = Oscillator()
        oscillator.reset(increment: increment, amplitude: 0.5)
        var random = SeededRandom(seed: 0x0F5E_0002)
        var rendered = 0
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        while rendered < 1_000_000 {
            let chunk = Int.random(in: 1...4096, using: &random)
            oscillator.render(into: buffer, frames: chunk)
            rendered += chunk
            #expect(oscillator.phase == UInt64(rendered) &* increment)
        }
    }

    @Test("a window starting 1e9 or 24 h (4.15e9) samples in reads the exact frequency, to 1 ppb",
          arguments: [60.0, 997.0, 10_000.0], [1_000_000_000, 24 * 3600 * 48_000] as [UInt64])
    func noDriftAfterBillionSamples(frequencyHz: Double, samples: UInt64) throws {
        let increment = Oscillator.increment(frequencyHz: frequencyHz, sampleRateHz: Self.sampleRateHz)
        let exactHz = Oscillator.frequencyHz(increment: increment, sampleRateHz: Self.sampleRateHz)
        #expect(abs(exactHz - frequencyHz) < 1e-12)
        var oscillator = Oscillator()
        oscillator.reset(increment: increment, amplitude: Decibels.amplitude(dbfs: -6),
                         phase: samples &* increment)
        let reading = try TestSignal.estimator().estimate(oscillator.render(frames: TestSignal.fftSize))
        let measured = try #require(reading.frequencyHz)
        report("oscillator \(frequencyHz) Hz at n = \(samples): frequency error \(formatted(measured - exactHz)) Hz")
        #expect(abs(measured - frequencyHz) < 1e-9 * frequencyHz)
        #expect(abs(try #require(reading.levelDBFS) + 6) < 0.01)
    }

    // MARK: - Frequency and level

    @Test("the estimator reads the oscillator's frequency and level",
          arguments: [40.0, 100.0, 440.0, 997.0, 1000.0, 10_000.0, 19_000.0, 21_600.0])
    func frequencyAccuracy(frequencyHz: Double) throws {
        let estimator = try TestSignal.estimator()
        var oscillator = Oscillator()
        oscillator.reset(increment: Oscillator.increment(frequencyHz: frequencyHz, sampleRateHz: Self.sampleRateHz),
                         amplitude: Decibels.amplitude(dbfs: -18), phase: 0x9E37_79B9_7F4A_7C15)
        let reading = estimator.estimate(oscillator.render(frames: TestSignal.fftSize))
        let error = try #require(reading.frequencyHz) - frequencyHz
        let levelError = try #require(reading.levelDBFS) + 18
        report("oscillator \(frequencyHz) Hz: frequency error \(formatted(error)) Hz, level error \(formatted(levelError)) dB")
        #expect(abs(error) < 1e-4)
        #expect(abs(levelError) < 0.01)
    }

    // MARK: - Ramps

    @Test("a glide 1000→1500 Hz, -18→-6 dBFS is click-free and lands exactly after rampFrames",
          arguments: [64, 480, 4800])
    func glideIsClickFree(rampFrames: Int) {
        let lowIncrement = Oscillator.increment(frequencyHz: 1000, sampleRateHz: Self.sampleRateHz)
        let highIncrement = Oscillator.increment(frequencyHz: 1500, sampleRateHz: Self.sampleRateHz)
        let lowAmplitude = Decibels.amplitude(dbfs: -18), highAmplitude = Decibels.amplitude(dbfs: -6)
        var oscillator = Oscillator(rampFrames: rampFrames)
        oscillator.reset(increment: lowIncrement, amplitude: lowAmplitude, phase: 0x1234_5678_9ABC_DEF0)
        var samples = oscillator.render(frames: 1001)     // glide lands mid-buffer
        oscillator.glide(toIncrement: highIncrement, amplitude: highAmplitude)
        #expect(oscillator.increment == lowIncrement && oscillator.amplitude == lowAmplitude)

        // Through the ramp but one sample, in uneven chunks: both parameters
        // move monotonically and stay short of their targets.
        var previousIncrement = oscillator.increment, previousAmplitude = oscillator.amplitude
        var rampRendered = 0
        var monotonic = true
        while rampRendered < rampFrames - 1 {
            let chunk = min(rampFrames - 1 - rampRendered, 1 + rampRendered % 37)
            samples += oscillator.render(frames: chunk)
            rampRendered += chunk
            monotonic = monotonic && oscillator.increment > previousIncrement
                && oscillator.amplitude > previousAmplitude
            previousIncrement = oscillator.increment
            previousAmplitude = oscillator.amplitude
        }
        #expect(monotonic)
        #expect(oscillator.increment < highIncrement && oscillator.amplitude < highAmplitude)
        samples += oscillator.render(frames: 1)
        // After exactly rampFrames samples the targets are reached exactly …
        #expect(oscillator.increment == highIncrement)
        #expect(oscillator.amplitude == highAmplitude)
        // … and the rest is the steady high tone, bit for bit.
        var steady = Oscillator()
        steady.reset(increment: highIncrement, amplitude: highAmplitude, phase: oscillator.phase)
        let tail = oscillator.render(frames: 2000)
        #expect(tail == steady.render(frames: 2000))
        samples += tail

        // A steady sine of peak A at increment d moves at most 2A·sin(π d/2^64)
        // per sample. The ramp may add one amplitude step per sample on top;
        // a click (phase jump, level step) would exceed this by far.
        let highOmega = 2 * Double.pi * Double(highIncrement) * 0x1p-64
        let steadyMaxStep = 2 * highAmplitude * sin(highOmega / 2)
        let amplitudeStep = (highAmplitude - lowAmplitude) / Double(rampFrames)
        let tolerance = amplitudeStep + 1e-6
        var maxStep = 0.0
        for index in 1..<samples.count {
            maxStep = max(maxStep, abs(Double(samples[index]) - Double(samples[index - 1])))
        }
        if rampFrames == 480 {
            report("glide 1000→1500 Hz over 480 frames: max |Δx| \(formatted(maxStep)) vs steady 1500 Hz \(formatted(steadyMaxStep))")
        }
        #expect(maxStep <= steadyMaxStep + tolerance)
    }

    @Test("rampFrames set to 0 after creation acts as 1 instead of dividing by zero")
    func zeroRampFrames() {
        let target = Oscillator.increment(frequencyHz: 880, sampleRateHz: Self.sampleRateHz)
        var oscillator = Oscillator()
        oscillator.reset(increment: Oscillator.increment(frequencyHz: 440, sampleRateHz: Self.sampleRateHz),
                         amplitude: 0.5)
        oscillator.rampFrames = 0
        oscillator.glide(toIncrement: target, amplitude: 0.25)
        _ = oscillator.render(frames: 1)
        #expect(oscillator.increment == target && oscillator.amplitude == 0.25)
    }

    @Test("a glide to silence and back keeps the phase running")
    func silenceKeepsPhase() {
        let increment = Oscillator.increment(frequencyHz: 440, sampleRateHz: Self.sampleRateHz)
        var oscillator = Oscillator(rampFrames: 100)
        oscillator.reset(increment: increment, amplitude: 0.5)
        _ = oscillator.render(frames: 50)
        oscillator.glide(toIncrement: increment, amplitude: 0)
        let fade = oscillator.render(frames: 100)
        #expect(fade.last == 0)
        let silent = oscillator.render(frames: 777)
        #expect(silent.allSatisfy { $0 == 0 })
        #expect(oscillator.phase == UInt64(50 + 100 + 777) &* increment)
    }

    @Test("after a frequency change the steady tone is the new step's sine, sample for sample",
          arguments: [(1000.0, 1500.0), (440.0, 439.9), (18_000.0, 30.0)])
    func steadyAfterChange(from fromHz: Double, to toHz: Double) {
        var oscillator = Oscillator(rampFrames: 64)
        oscillator.reset(increment: Oscillator.increment(frequencyHz: fromHz, sampleRateHz: Self.sampleRateHz),
                         amplitude: 0.5)
        _ = oscillator.render(frames: 256)                  // steady at the first frequency
        oscillator.glide(toIncrement: Oscillator.increment(frequencyHz: toHz, sampleRateHz: Self.sampleRateHz),
                         amplitude: 0.5)
        _ = oscillator.render(frames: 64)                   // the glide
        #expect(oscillator.isSteady)
        for frames in [64, 256, 1000] {
            let phase = oscillator.phase, increment = oscillator.increment
            let steady = oscillator.render(frames: frames)
            let worst = (0..<frames).map {
                abs(Double(steady[$0]) - 0.5 * sineOfPhase(phase &+ increment &* UInt64($0)))
            }.max() ?? .infinity
            #expect(worst <= 0x1p-24, "\(frames) frames: off by \(worst)")
        }
    }
}
