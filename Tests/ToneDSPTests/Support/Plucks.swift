import Foundation
import ToneDSP
import ToneTestSupport

/// Seeded plucked-string signals with a known pitch, for the pitch tests.
enum Pluck {
    static let sampleRateHz = 48_000.0
    /// E2, A2, D3, G3, B3, E4, A4 (standard guitar tuning and the A above).
    static let guitarMidiNotes = [40, 45, 50, 55, 59, 64, 69]

    static func frequencyHz(midiNote: Int) -> Double { EqualTemperament().frequencyHz(midiNote: Double(midiNote)) }

    /// An additive pluck whose partials are exactly harmonic, so its pitch is
    /// exactly `frequencyHz`: partial h has amplitude ~1/h shaped by a random
    /// plucking position (the comb |sin(π·h·β)|), a random phase, and a decay
    /// that quickens with h (τₕ = 1.2 s / (1 + 0.015·h²)), like a real string.
    /// Silence before `onsetSeconds`; peak around 0.5.
    static func additive(frequencyHz: Double, seconds: Double, onsetSeconds: Double = 0,
                         random: inout SeededRandom) -> [Double] {
        let count = Int(seconds * sampleRateHz)
        let onset = Int(onsetSeconds * sampleRateHz)
        var signal = [Double](repeating: 0, count: count)
        let position = 0.1 + 0.2 * random.uniform()
        var h = 1
        while Double(h) * frequencyHz < 0.45 * sampleRateHz && h <= 40 {
            let amplitude = 0.25 * max(0.05, abs(sin(Double.pi * Double(h) * position))) / Double(h)
            let phase = random.phase()
            let decayPerSample = 1 / (1.2 / (1 + 0.015 * Double(h * h)) * sampleRateHz)
            let omega = 2 * Double.pi * Double(h) * frequencyHz / sampleRateHz
            for n in onset..<count {
                let t = Double(n - onset)
                signal[n] += amplitude * exp(-decayPerSample * t) * sin(omega * t + phase)
            }
            h += 1
        }
        return signal
    }

    /// Karplus–Strong: a delay line of `L` samples filled with seeded noise,
    /// averaged in a loop. Its pitch is close to rate / (L + ½) (the averaging
    /// filter delays half a sample) but not exact, so tests use it for gross
    /// (octave) errors only.
    static func karplusStrong(delayFrames: Int, seconds: Double, random: inout SeededRandom) -> [Double] {
        var line = (0..<delayFrames).map { _ in random.uniform() - 0.5 }
        let count = Int(seconds * sampleRateHz)
        var signal = [Double](repeating: 0, count: count)
        var index = 0
        var previous = 0.0
        for n in 0..<count {
            let current = line[index]
            let next = 0.996 * 0.5 * (current + previous)
            previous = current
            line[index] = next
            index = (index + 1) % delayFrames
            signal[n] = current
        }
        return signal
    }

    /// Adds white noise so the mean signal power over `referenceRange` is `snrDB` above the noise.
    static func addNoise(to signal: inout [Double], snrDB: Double, referenceRange: Range<Int>,
                         random: inout SeededRandom) -> Double {
        var power = 0.0
        for n in referenceRange { power += signal[n] * signal[n] }
        power /= Double(referenceRange.count)
        let noiseRMS = (power / pow(10, snrDB / 10)).squareRoot()
        for n in signal.indices { signal[n] += noiseRMS * random.gaussian() }
        return noiseRMS
    }

    /// Cents from `truthHz`; infinity for no reading.
    static func centsError(_ frequencyHz: Double?, truthHz: Double) -> Double {
        guard let frequencyHz else { return .infinity }
        return 1200 * log2(frequencyHz / truthHz)
    }

    /// Runs a pitch analyzer (frame 4096, `hopFrames`) over `signal`.
    static func analyze(_ signal: [Double], frameSize: Int = 4096, hopFrames: Int = 256) throws -> [ToneReport] {
        try run(signal, frameSize: frameSize, hopFrames: hopFrames).reports
    }

    /// The same, and the detector it ran, to read what it did (`trackedWindows`).
    /// `tracking`: whether a clear pitch is tracked from window to window (the default) or searched afresh in each.
    static func run(_ signal: [Double], frameSize: Int = 4096, hopFrames: Int = 256,
                    tracking: Bool = true) throws -> (reports: [ToneReport], detector: PitchDetector) {
        var configuration = PitchDetectorConfiguration(sampleRateHz: sampleRateHz, frameSize: frameSize)
        configuration.tracksClearPitch = tracking
        let detector = try PitchDetector(configuration, planning: .estimate)
        let analyzer = try PitchAnalyzer(detector: detector, hopFrames: hopFrames)
        var reports: [ToneReport] = []
        signal.map { Float($0) }.withUnsafeBufferPointer { analyzer.process($0) { reports.append($0) } }
        return (reports, detector)
    }
}
