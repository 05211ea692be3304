import EndToEndSupport
import Foundation
import Testing
import ToneAudioFile

@Suite("tonenode encode / decode")
struct ModemCommandLineTests {
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "tn-modem-\(getpid())-\(UUID().uuidString.prefix(8))-\(name)"
    }

    static func objects(_ result: CommandResult) -> [[String: Any]] {
        result.stdoutLines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    @Test("encode then decode --json, every profile, at 44.1 and 96 kHz",
          arguments: ["ultrasonic", "ultrasonic-fast", "audible", "audible-fast"], ["44100", "96000"])
    func roundTrip(profile: String, rate: String) throws {
        let wav = Self.temporaryPath("rt.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let text = "Grüße \"quoted\" \\ tab\t end"
        let encoded = try runCommand(["encode", text, "-o", wav, "--profile", profile, "--rate", rate])
        #expect(encoded.status == 0, "stderr: \(encoded.stderr)")
        #expect(encoded.stdout.isEmpty)
        let decoded = try runCommand(["decode", wav, "--json"])
        #expect(decoded.status == 0, "stderr: \(decoded.stderr)")
        let objects = Self.objects(decoded)
        #expect(objects.count == 1 && decoded.stdoutLines.count == 1, "stdout: \(decoded.stdout)")
        let object = try #require(objects.first)
        #expect(object["text"] as? String == text)
        #expect(object["base64"] as? String == Data(text.utf8).base64EncodedString())
        #expect(object["profile"] as? String == profile)
        #expect((object["snr_db"] as? Double ?? 0) > 20)
        #expect(abs((object["time_s"] as? Double ?? -1) - 0.025) < 0.001)
    }

    @Test("binary from --file and text from stdin; human output; base64 for non-UTF-8")
    func sources() throws {
        let input = Self.temporaryPath("bytes.bin"), wav = Self.temporaryPath("file.wav"), wav2 = Self.temporaryPath("stdin.wav")
        defer { for path in [input, wav, wav2] { try? FileManager.default.removeItem(atPath: path) } }
        let bytes: [UInt8] = (0..<70).map { UInt8(255 - $0) }  // three frames, not UTF-8
        _ = FileManager.default.createFile(atPath: input, contents: Data(bytes))
        let encoded = try runCommand(["encode", "--file", input, "-o", wav, "--profile", "audible-fast"])
        #expect(encoded.status == 0, "stderr: \(encoded.stderr)")
        let decoded = try runCommand(["decode", wav, "--json"])
        let object = try #require(Self.objects(decoded).first)
        #expect(object["text"] == nil)
        #expect(object["base64"] as? String == Data(bytes).base64EncodedString())
        #expect(object["frames"] as? Int == 3)
        let human = try runCommand(["decode", wav])
        #expect(human.status == 0)
        #expect(human.stdoutLines.count == 1 && human.stdout.contains("base64:" + Data(bytes).base64EncodedString()))

        let tonenode = productsDirectory.appendingPathComponent("tonenode").path
        let piped = try runCommand(["-c", "printf 'piped in' | '\(tonenode)' encode - -o '\(wav2)'"], executable: "/bin/sh")
        #expect(piped.status == 0, "stderr: \(piped.stderr)")
        let fromStdin = try runCommand(["decode", wav2])
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout.contains("ultrasonic") && fromStdin.stdout.hasSuffix("piped in\n"))
    }

    @Test("no message in the file: exit 1, nothing on stdout, one line on stderr saying so")
    func nothingFound() throws {
        let wav = Self.temporaryPath("noise.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        var state: UInt64 = 1
        let noise: [Float] = (0..<48_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2000 - 1000) / 10_000
        }
        try AudioFileWriter.writeWAV(path: wav, samples: noise, sampleRateHz: 48_000)
        let result = try runCommand(["decode", wav, "--json"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["tonenode: error: no message found in \(wav)"])
    }

    @Test("a missing frame: reported incomplete, exit 1")
    func incomplete() throws {
        let wav = Self.temporaryPath("full.wav"), cut = Self.temporaryPath("cut.wav")
        defer { for path in [wav, cut] { try? FileManager.default.removeItem(atPath: path) } }
        let text = String(repeating: "0123456789", count: 7)  // 3 frames
        #expect(try runCommand(["encode", text, "-o", wav, "--profile", "audible-fast"]).status == 0)
        var samples = try AudioFileReader(path: wav).readChannel()
        let third = samples.count / 3
        for index in third..<(2 * third) { samples[index] = 0 }
        try AudioFileWriter.writeWAV(path: cut, samples: samples, sampleRateHz: 48_000)
        let result = try runCommand(["decode", cut, "--json"])
        #expect(result.status == 1)
        let object = try #require(Self.objects(result).first)
        #expect(object["incomplete"] as? Bool == true)
        #expect(object["frames_received"] as? Int == 2 && object["frames"] as? Int == 3)
        #expect(object["text"] == nil && object["base64"] == nil)
        #expect(result.stderrLines == ["tonenode: error: no complete message in \(cut) (1 incomplete, printed above)"])
    }

    static let badCases: [([String], Int32)] = [
        (["encode", "x"], 64), (["encode", "-o", "/tmp/x.wav"], 64), (["encode", "x", "--file", "y", "-o", "z.wav"], 64),
        (["encode", "x", "-o", "z.wav", "--rate", "32000"], 64), (["encode", "x", "-o", "z.wav", "--profile", "loud"], 64),
        (["encode", "x", "-o", "z.wav", "--level", "nan"], 64), (["decode", "x.wav", "--channel", "0"], 64),
        (["decode", "/nonexistent/x.wav"], 1), (["encode", "--file", "/nonexistent/y", "-o", "/tmp/z.wav"], 1),
        (["encode", "x", "-o", "/nonexistent/dir/z.wav"], 1),
    ]

    @Test("bad input: one line on stderr, exit 64 for options, 1 for files",
          arguments: ModemCommandLineTests.badCases)
    func badInput(arguments: [String], status: Int32) throws {
        let result = try runCommand(arguments)
        #expect(result.status == status, "stderr: \(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("tonenode: error: "), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
