import EndToEndSupport
import Foundation
import Testing
import ToneAudioFile

/// `tonenode analyze --tones K` on generated files (no JACK server needed).
@Suite("analyze --tones")
struct MultiToneCommandTests {
    /// One second at 48 kHz: 1 kHz at -10 dBFS and a tone 3 bins (of 4096) above it at -50 dBFS.
    static func twoToneFile(_ name: String) throws -> String {
        let rate = 48_000
        let path = NSTemporaryDirectory() + "tn-two-tones-\(name)-\(getpid()).wav"
        let (strongHz, weakHz) = (1000.0, 1000.0 + 3 * 48_000 / 4096)
        let samples = (0..<rate).map { n -> Float in
            let t = Double(n) / Double(rate)
            return Float(pow(10, -10.0 / 20) * sin(2 * Double.pi * strongHz * t)
                         + pow(10, -50.0 / 20) * sin(2 * Double.pi * weakHz * t + 1))
        }
        try AudioFileWriter.writeWAV(path: path, samples: samples, sampleRateHz: rate)
        return path
    }

    @Test("--tones 2 --json: both tones in a tones array, strongest first; the top-level fields are the strongest's")
    func twoTonesJSON() throws {
        let path = try Self.twoToneFile("json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try runCommand(["analyze", path, "--tones", "2", "--json", "--hop", "4096"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let objects = result.stdoutLines.compactMap(parseReport)
        #expect(objects.count == result.stdoutLines.count && objects.count == (48_000 - 4096) / 4096 + 1)
        let weakHz = 1000.0 + 3 * 48_000.0 / 4096
        for object in objects {
            let tones = try #require(object["tones"] as? [[String: Any]], "\(object)")
            try #require(tones.count == 2, "\(object)")
            #expect(abs((tones[0]["freq_hz"] as? Double ?? 0) - 1000) < 1e-4)
            #expect(abs((tones[0]["level_dbfs"] as? Double ?? 0) + 10) < 0.01)
            #expect(abs((tones[1]["freq_hz"] as? Double ?? 0) - weakHz) < 1e-3)
            #expect(abs((tones[1]["level_dbfs"] as? Double ?? 0) + 50) < 0.05)
            #expect(tones[1]["snr_db"] is Double)
            #expect(object["freq_hz"] as? Double == tones[0]["freq_hz"] as? Double)
        }
        // Without --tones: one tone, no array (the format of earlier versions).
        // The one-tone fit takes the weak tone beside it for noise: a few mHz
        // off, where the joint fit above is within 0.1 mHz.
        let single = try runCommand(["analyze", path, "--json", "--hop", "4096"])
        let first = try #require(single.stdoutLines.first.flatMap(parseReport))
        #expect(first["tones"] == nil)
        #expect(abs((first["freq_hz"] as? Double ?? 0) - 1000) < 0.05)
    }

    @Test("--tones 2 for people: the second tone on a line of its own under the first")
    func twoTonesHuman() throws {
        let path = try Self.twoToneFile("human")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try runCommand(["analyze", path, "--tones", "2", "--hop", "4096"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdoutLines.count == 2 * ((48_000 - 4096) / 4096 + 1), "stdout: \(result.stdout)")
        #expect(result.stdoutLines.first?.contains("1000.0000 Hz") == true, "stdout: \(result.stdout)")
        #expect(result.stdoutLines.dropFirst().first?.contains("1035.1562 Hz") == true, "stdout: \(result.stdout)")
    }

    @Test("--tones out of range: one line, exit 64", arguments: ["0", "17", "x"])
    func badTones(value: String) throws {
        let result = try runCommand(["analyze", "x.wav", "--tones", value])
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderrLines.count == 1, "stderr: \(result.stderr)")
    }
}
