import Foundation
import Testing
import ToneDSP
import ToneTestSupport

@Suite("ToneEstimator in coloured noise")
struct ToneEstimatorColouredNoiseTests {
    static let windows = 200

    /// A tone that stands 20–30 dB above the pink floor around it is found,
    /// even though pink noise near DC is louder than the tone itself (the
    /// loudest bin of the window is a noise bump at a few tens of Hz), and its
    /// frequency is as good as the noise at its own frequency allows: the
    /// Cramér–Rao bound with the white-noise variance replaced by the pink
    /// noise's spectral density at the tone (measured on the same noise).
    @Test("a tone well above the local pink floor is found wherever it is, near the local Cramér–Rao bound",
          arguments: [(60.0, -10.0), (1000.0, -20.0), (5000.0, -30.0), (15_000.0, -30.0)])
    func toneInPinkNoise(frequencyHz: Double, levelDBFS: Double) throws {
        let n = TestSignal.fftSize
        let estimator = try TestSignal.estimator()
        let periodogram = try #require(RealFFT(size: n, planning: .estimate))
        let hann = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        let amplitude = Decibels.amplitude(dbfs: levelDBFS)
        let toneBin = Int((frequencyHz / TestSignal.binHz).rounded())
        var pink = PinkNoise(seed: 0x9147 ^ UInt64(frequencyHz))
        var random = SeededRandom(seed: 0x9148 ^ UInt64(frequencyHz))
        let scale = Decibels.amplitude(dbfs: -20) / 2.0.squareRoot() / 3.3     // pink at -20 dBFS RMS
        var noise = [Double](repeating: 0, count: n)
        var power = [Double](repeating: 0, count: n / 2 + 1)
        var noisePowerNearTone = 0.0
        var detected = 0
        var squaredError = 0.0
        for _ in 0..<Self.windows {
            for index in 0..<n { noise[index] = scale * pink.next() }
            // Spectral density of this noise around the tone (Hann periodogram, bins ±2).
            let mean = noise.reduce(0, +) / Double(n)
            for index in 0..<n { periodogram.input[index] = Float((noise[index] - mean) * hann[index]) }
            power.withUnsafeMutableBufferPointer { periodogram.powerSpectrum(into: $0.baseAddress!) }
            noisePowerNearTone += power[(toneBin - 2)...(toneBin + 2)].reduce(0, +) / 5

            var frame = TestSignal.sine(frequencyHz: frequencyHz, amplitude: amplitude, phase: random.phase(),
                                        random: &random)
            for index in frame.indices { frame[index] += Float(noise[index]) }
            guard let measured = estimator.estimate(frame).frequencyHz, abs(measured - frequencyHz) < 1 else { continue }
            detected += 1
            squaredError += (measured - frequencyHz) * (measured - frequencyHz)
        }
        let rmsError = (squaredError / Double(max(1, detected))).squareRoot()
        // Per-sample variance of white noise with the same density: E|X|² / Σw², Σw² = 3N/8 for Hann.
        let localVariance = noisePowerNearTone / Double(Self.windows) / (3 * Double(n) / 8)
        let localSNRDB = 10 * log10(amplitude * amplitude / 2 / localVariance)
        let bound = TestSignal.cramerRaoHz(snrDB: localSNRDB)
        report("\(frequencyHz) Hz at \(Int(levelDBFS)) dBFS in pink noise at -20 dBFS: found in \(detected)/\(Self.windows), RMS error \(formatted(rmsError)) Hz, local SNR \(formatted(localSNRDB)) dB, local CRLB \(formatted(bound)) Hz, ratio \(formatted(rmsError / bound))")
        #expect(Double(detected) >= 0.99 * Double(Self.windows))
        #expect(rmsError < 1.3 * bound)
    }

    /// Brown (1/f²) noise from a leaky integrator: steeper towards DC than pink.
    @Test("brown noise: no tone in at least 99 % of windows")
    func brownNoise() throws {
        let estimator = try TestSignal.estimator()
        var random = SeededRandom(seed: 0xB40)
        var state = 0.0
        var frame = [Float](repeating: 0, count: TestSignal.fftSize)
        for _ in 0..<10_000 { state = 0.999 * state + random.gaussian() }
        var reported: [Double] = []
        for _ in 0..<400 {
            for index in frame.indices {
                state = 0.999 * state + random.gaussian()
                frame[index] = Float(0.002 * state)
            }
            if let frequencyHz = estimator.estimate(frame).frequencyHz { reported.append(frequencyHz) }
        }
        report("brown noise: tone reported in \(reported.count)/400 windows \(reported.map { formatted($0) })")
        #expect(Double(reported.count) <= 0.01 * 400)
    }

    @Test("of two tones in white noise, the louder one is reported")
    func twoTones() throws {
        var random = SeededRandom(seed: 0x2707)
        let estimator = try TestSignal.estimator()
        for trial in 0..<20 {
            let (loud, quiet) = trial % 2 == 0 ? (3000.0, 700.0) : (700.0, 3000.0)
            let a = TestSignal.sine(frequencyHz: loud, amplitude: 0.1, phase: random.phase(), noiseRMS: 0.001,
                                    random: &random)
            let b = TestSignal.sine(frequencyHz: quiet, amplitude: 0.03, phase: random.phase(), random: &random)
            let reading = estimator.estimate(zip(a, b).map { $0 + $1 })
            #expect(abs(try #require(reading.frequencyHz) - loud) < 0.01)
        }
    }
}
