import ToneTestSupport
import Foundation
import ToneAudioFile

/// One generated test file and the pitch it should read.
struct PitchCase {
    var category: String
    var name: String
    var path: String
    var truthHz: Double
    /// The file's own pitch where it differs from `truthHz` (sox's plucks are a few tenths of a cent flat).
    var measuredTruthHz: Double?
    var seconds: Double

    static let sampleRateHz = 48_000
    static let guitar: [(String, Double)] = [("E2", 40), ("A2", 45), ("D3", 50), ("G3", 55), ("B3", 59), ("E4", 64), ("A4", 69)]
        .map { ($0.0, 440 * pow(2, ($0.1 - 69) / 12)) }

    /// Writes every case into `directory` (sox for the plucks, the rest computed here).
    static func generate(in directory: String) throws -> [PitchCase] {
        var cases: [PitchCase] = []
        var random = SplitMix(seed: 2026)
        let rate = Double(sampleRateHz)
        let count = 2 * sampleRateHz
        func write(_ samples: [Double], _ name: String) throws -> String {
            let path = directory + "/" + name + ".wav"
            try AudioFileWriter.writeWAV(path: path, samples: samples.map { Float($0) }, sampleRateHz: sampleRateHz)
            return path
        }
        for frequency in [82.41, 110, 196, 440, 1000] {
            let phase = 2 * Double.pi * random.uniform()
            let clean = (0..<count).map { 0.5 * sin(2 * Double.pi * frequency * Double($0) / rate + phase) }
            cases.append(PitchCase(category: frequency == 82.41 ? "sine 82.41 Hz (E2)" : "sines 110–1000 Hz",
                                   name: "sine \(frequency) Hz",
                                   path: try write(clean, "sine-\(frequency)"), truthHz: frequency, seconds: 2))
            // 10 dB SNR: σ² = (A²/2)/10.
            let sigma = (0.125 / 10).squareRoot()
            let noisy = clean.map { $0 + sigma * random.gaussian() }
            cases.append(PitchCase(category: "sines + white noise, 10 dB SNR", name: "noisy sine \(frequency) Hz",
                                   path: try write(noisy, "noisy-sine-\(frequency)"), truthHz: frequency, seconds: 2))
        }
        for fundamental in [82.41, 110, 196] {
            var signal = [Double](repeating: 0, count: count)
            for h in 2...8 {
                let amplitude = 0.08 * (0.5 + 0.5 * random.uniform())
                let phase = 2 * Double.pi * random.uniform()
                for n in 0..<count {
                    signal[n] += amplitude * sin(2 * Double.pi * Double(h) * fundamental * Double(n) / rate + phase)
                }
            }
            cases.append(PitchCase(category: "missing fundamental (harmonics 2–8)", name: "missing \(fundamental)",
                                   path: try write(signal, "missing-\(fundamental)"), truthHz: fundamental, seconds: 2))
        }
        for (note, frequency) in guitar {
            let path = directory + "/pluck-\(note).wav"
            guard ChildProcess.run(["sox", "-n", "-r", "48000", "-b", "32", "-e", "floating-point", path,
                                    "synth", "2", "pluck", note], stdoutPath: "/dev/null")?.status == 0 else {
                throw AudioFileError.cannotWrite(path: path, reason: "sox failed")
            }
            let samples = try AudioFileReader(path: path).readChannel().map { Double($0) }
            cases.append(PitchCase(category: "sox plucks E2–A4", name: "pluck \(note)", path: path,
                                   truthHz: frequency, seconds: 2))
            // White noise 10 dB below the pluck's mean power over its first second.
            let power = samples[0..<sampleRateHz].reduce(0) { $0 + $1 * $1 } / rate
            let sigma = (power / 10).squareRoot()
            let noisy = samples.map { $0 + sigma * random.gaussian() }
            cases.append(PitchCase(category: "sox plucks + white noise, 10 dB SNR", name: "noisy pluck \(note)",
                                   path: try write(noisy, "noisy-pluck-\(note)"), truthHz: frequency, seconds: 2))
        }
        return cases
    }

    /// A long file for the speed ratio: the seven clean sox plucks, repeated to `seconds` or more.
    static func speedFile(in directory: String, seconds: Double) throws -> String {
        var samples: [Float] = []
        while Double(samples.count) < seconds * Double(sampleRateHz) {
            for (note, _) in guitar {
                samples += try AudioFileReader(path: directory + "/pluck-\(note).wav").readChannel()
            }
        }
        let path = directory + "/speed-plucks.wav"
        try AudioFileWriter.writeWAV(path: path, samples: samples, sampleRateHz: sampleRateHz)
        return path
    }
}

/// SplitMix64 with Box–Muller: the benchmark's files are the same on every run.
struct SplitMix {
    private var core: SplitMix64
    private var spare: Double?
    init(seed: UInt64) { core = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { core.next() }

    mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    mutating func gaussian() -> Double {
        if let spare { self.spare = nil; return spare }
        let u1 = 1 - uniform(), u2 = uniform()
        let radius = (-2 * log(u1)).squareRoot()
        spare = radius * sin(2 * Double.pi * u2)
        return radius * cos(2 * Double.pi * u2)
    }
}
