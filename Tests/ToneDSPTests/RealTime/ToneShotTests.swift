import Foundation
import Testing
import ToneDSP
import ToneTestSupport

extension ToneShot {
    /// Renders the whole shot over silence.
    mutating func renderAll() -> [Float] {
        var out = [Float](repeating: 0, count: totalFrames)
        out.withUnsafeMutableBufferPointer { _ = render(over: $0.baseAddress!, frames: totalFrames) }
        return out
    }
}

/// Power spectrum (|X|², one-sided) of `samples` zero-padded to `size`.
func powerSpectrum(_ samples: [Float], size: Int) throws -> [Double] {
    let fft = try #require(RealFFT(size: size, planning: .estimate))
    for index in 0..<size { fft.input[index] = index < samples.count ? samples[index] : 0 }
    var power = [Double](repeating: 0, count: size / 2 + 1)
    power.withUnsafeMutableBufferPointer { fft.powerSpectrum(into: $0.baseAddress!) }
    return power
}

@Suite("Beeps and sweeps")
struct ToneShotTests {
    static let rate = 48_000.0

    @Test("2^x matches pow to a few ulps", arguments: stride(from: -30.0, through: 30.0, by: 0.0137).map { $0 })
    func exponent(x: Double) {
        let expected = pow(2, x)
        #expect(abs(exponentOfTwo(x) - expected) <= 4 * expected.ulp)
    }

    @Test("a beep has no step: starts and ends at 0, no sample-to-sample jump beyond the sine's own slope",
          arguments: [(1000.0, 0.1), (997.0, 0.0123), (15_000.0, 0.5), (440.0, 0.0002)])
    func noStep(hz: Double, seconds: Double) throws {
        let amplitude = 0.5
        var beep = try #require(ToneShot.beep(frequencyHz: hz, seconds: seconds, amplitude: amplitude, sampleRateHz: Self.rate))
        let samples = beep.renderAll()
        #expect(samples.count == Int((seconds * Self.rate).rounded()))
        #expect(!beep.isActive)
        #expect(samples[0] == 0)
        // Sine slope plus envelope slope (π/2R per sample at most), with a margin for Float rounding.
        let bound = amplitude * (2 * Double.pi * hz / Self.rate + Double.pi / (2 * Double(beep.edgeFrames))) + 1e-6
        let worst = zip(samples, samples.dropFirst()).map { abs(Double($1) - Double($0)) }.max() ?? 0
        #expect(worst <= bound)
        #expect(abs(Double(samples.last!)) <= bound)
        // The hold is the plain sine at full amplitude.
        let peak = samples.map { abs(Double($0)) }.max() ?? 0
        if beep.totalFrames > 4 * beep.edgeFrames { #expect(abs(peak - amplitude) < 1e-3) }
    }

    @Test("a raised-cosine beep splatters far less than the same beep gated on and off")
    func splatter() throws {
        let hz = 1000.0, seconds = 0.1
        var beep = try #require(ToneShot.beep(frequencyHz: hz, seconds: seconds, amplitude: 1, sampleRateHz: Self.rate))
        let shaped = beep.renderAll()
        // Same sine, rectangular gate: phase 0 at the start, cut mid-cycle at the end (4800.0 samples is
        // 100 cycles, so end a quarter cycle later to make the gate's step real).
        let gated = (0..<shaped.count + 12).map { Float(sin(2 * Double.pi * hz * Double($0) / Self.rate)) }
        let size = 1 << 15
        let binHz = Self.rate / Double(size)
        func farFraction(_ power: [Double]) -> Double {
            let total = power.reduce(0, +)
            let far = power.enumerated().filter { abs(Double($0.offset) * binHz - hz) > 500 }.map(\.element).reduce(0, +)
            return far / total
        }
        let shapedFar = Decibels.power(ratio: farFraction(try powerSpectrum(shaped, size: size)))
        let gatedFar = Decibels.power(ratio: farFraction(try powerSpectrum(gated, size: size)))
        report("beep 1 kHz 0.1 s: energy beyond ±500 Hz of the carrier \(formatted(shapedFar)) dB (raised cosine) vs \(formatted(gatedFar)) dB (gated)")
        #expect(shapedFar < -70)
        #expect(shapedFar < gatedFar - 40)
    }

    @Test("a sweep follows f0·(f1/f0)^(t/T) exactly and its phase is the running sum of its frequency",
          arguments: [(20.0, 20_000.0, 2.0), (8000.0, 100.0, 0.5), (1000.0, 1001.0, 10.0)])
    func sweepLaw(startHz: Double, endHz: Double, seconds: Double) throws {
        let amplitude = 0.25
        var sweep = try #require(ToneShot.sweep(startHz: startHz, endHz: endHz, seconds: seconds, amplitude: amplitude,
                                                sampleRateHz: Self.rate))
        let total = sweep.totalFrames
        // Render in two halves to look at the frequency in the middle: the geometric mean of the ends.
        var samples = [Float](repeating: 0, count: total)
        let half = total / 2
        samples.withUnsafeMutableBufferPointer { _ = sweep.render(over: $0.baseAddress!, frames: half) }
        let expectedMiddle = startHz * pow(endHz / startHz, Double(half) / Double(total)) / Self.rate
        #expect(abs(sweep.cyclesPerSample - expectedMiddle) / expectedMiddle < 1e-10)
        samples.withUnsafeMutableBufferPointer { _ = sweep.render(over: $0.baseAddress! + half, frames: total - half) }
        // Frequency after all samples: f1, to the rounding of n multiplications.
        let expectedEnd = endHz / Self.rate
        #expect(abs(sweep.cyclesPerSample - expectedEnd) / expectedEnd < 1e-9)
        // Against the closed form of the discrete law: phase(n) = c0·(r^n − 1)/(r − 1).
        let c0 = startHz / Self.rate
        let r = pow(endHz / startHz, 1 / Double(total))
        var worst = 0.0
        for n in stride(from: sweep.edgeFrames, to: total - sweep.edgeFrames, by: 7) {
            // expm1/log1p: r − 1 is tiny for slow sweeps (and exact: Sterbenz).
            let cycles = c0 * expm1(Double(n) * log1p(r - 1)) / (r - 1)
            let expected = amplitude * sin(2 * Double.pi * (cycles - cycles.rounded(.down)))
            worst = max(worst, abs(Double(samples[n]) - expected))
        }
        report("sweep \(startHz)→\(endHz) Hz in \(seconds) s: worst deviation from the closed form \(formatted(worst)) (amplitude \(amplitude))")
        #expect(worst < 1e-5)
        // Phase continuity: no step beyond the fastest slope.
        let bound = amplitude * (2 * Double.pi * max(startHz, endHz) / Self.rate + Double.pi / (2 * Double(sweep.edgeFrames))) + 1e-6
        #expect(zip(samples, samples.dropFirst()).allSatisfy { abs(Double($1) - Double($0)) <= bound })
    }

    @Test("bad beeps and sweeps are refused", arguments: [
        (0.0, 100.0, 1.0), (-5.0, 100.0, 1.0), (24_000.0, 100.0, 1.0), (100.0, 30_000.0, 1.0), (100.0, 200.0, 0.0),
        (100.0, 200.0, -1.0), (.nan, 200.0, 1.0), (100.0, 200.0, .infinity), (100.0, 200.0, 3601.0),
    ])
    func refused(start: Double, end: Double, seconds: Double) {
        #expect(ToneShot.sweep(startHz: start, endHz: end, seconds: seconds, amplitude: 1, sampleRateHz: Self.rate) == nil)
    }

    @Test("releasing early continues from the present envelope value")
    func earlyRelease() throws {
        var beep = try #require(ToneShot.beep(frequencyHz: 1000, seconds: 1, amplitude: 1, sampleRateHz: Self.rate))
        var scratch = [Float](repeating: 0, count: 200)
        _ = scratch.withUnsafeMutableBufferPointer { beep.render(over: $0.baseAddress!, frames: 200) }
        let before = beep.envelope(at: beep.frame)
        beep.release()
        #expect(abs(beep.envelope(at: beep.frame) - before) < 1e-12)
        #expect(beep.totalFrames - beep.frame == 200)
    }
}
