import EndToEndSupport
import Foundation
import Testing
import ToneAudioFile
import ToneTestSupport

/// `tonenode analyze` on files that are broken in the ways files break.
@Suite("analyze on broken files")
struct BadFileTests {
    static let rate = 48000

    /// A one-second 1234.5 Hz WAV at -6 dBFS, as bytes.
    static func toneWAV() throws -> Data {
        let path = NSTemporaryDirectory() + "tn-badfile-src-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let samples = (0..<rate).map { Float(0.5 * sin(2 * Double.pi * 1234.5 * Double($0) / Double(rate))) }
        try AudioFileWriter.writeWAV(path: path, samples: samples, sampleRateHz: rate)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func analyze(_ bytes: Data, extension ext: String = "wav") throws -> CommandResult {
        let path = NSTemporaryDirectory() + "tn-badfile-\(UUID().uuidString).\(ext)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try bytes.write(to: URL(fileURLWithPath: path))
        return try runCommand(["analyze", path, "--json"], timeoutSeconds: 20)
    }

    @Test("empty, header-only and random-byte files: one line, exit 1",
          arguments: ["empty", "header only", "random bytes", "RIFF header, garbage after"])
    func unreadable(kind: String) throws {
        let wav = try Self.toneWAV()
        var generator = SplitMix64(seed: 7)
        let bytes: Data = switch kind {
        case "empty": Data()
        case "header only": wav.prefix(44)
        case "random bytes": Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        default: wav.prefix(12) + Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        let result = try Self.analyze(bytes)
        #expect(result.status == 1, "stdout: \(result.stdout.prefix(300))")
        #expect(result.stderrLines.count == 1, "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a WAV cut off mid-data is analysed as far as it goes, exactly")
    func truncated() throws {
        let wav = try Self.toneWAV()
        let result = try Self.analyze(wav.prefix(wav.count / 2 + 3))  // mid-sample, too
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let reports = result.stdoutLines.compactMap(parseReport)
        #expect(reports.count >= 5)
        for report in reports { #expect(abs((report["freq_hz"] as? Double ?? 0) - 1234.5) < 0.001) }
    }

    @Test("a WAV whose header claims gigabytes it does not hold: no crash, no hang, no garbage")
    func lyingHeader() throws {
        var wav = try Self.toneWAV()
        // RIFF size and data size fields set to nearly 4 GiB.
        for offset in [4, 40] { wav.replaceSubrange(offset..<offset + 4, with: [0xF0, 0xFF, 0xFF, 0xFF]) }
        let result = try Self.analyze(wav)
        #expect(result.status == 0 || result.stderrLines.count == 1, "stderr: \(result.stderr)")
        for report in result.stdoutLines.compactMap(parseReport) {
            #expect(abs((report["freq_hz"] as? Double ?? 0) - 1234.5) < 0.001)
        }
    }
}
