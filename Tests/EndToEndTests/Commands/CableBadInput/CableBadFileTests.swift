import EndToEndSupport
import Foundation
import Testing
import ToneAudioFile
import ToneTestSupport

/// `decode` on cable files that are broken in the ways recordings break
/// (issue 32 item 5): never a wrong byte, never a partial file; one line, exit 1.
@Suite("decode on broken cable recordings")
struct CableBadFileTests {
    /// A recording of `send`'s segments: 24000 bytes in segments of 9000, 9000 and 6000 (3, 3 and 2 frames).
    static func recording(seed: UInt64) throws -> CableRecording {
        try CableRecording(bytes: 24_000, segmentBytes: 9_000, seed: seed)
    }

    /// `decode FILE -o OUT` on `samples` written as a float WAV: the result and OUT's bytes (nil: not written).
    static func decode(_ samples: [Float], extra: [String] = []) throws -> (result: CommandResult, written: [UInt8]?) {
        let wav = ModemCommandLineTests.temporaryPath("cable-bad.wav")
        let output = ModemCommandLineTests.temporaryPath("cable-bad.out")
        defer { for path in [wav, output] { try? FileManager.default.removeItem(atPath: path) } }
        try AudioFileWriter.writeWAV(path: wav, samples: samples, sampleRateHz: 48_000)
        let result = try runCommand(["decode", wav, "-o", output] + extra, timeoutSeconds: 60)
        return (result, FileManager.default.contents(atPath: output).map(Array.init))
    }

    /// Exit 1, one line on stderr containing each of `parts`, nothing on stdout, no file.
    static func expectRefused(_ decoded: (result: CommandResult, written: [UInt8]?), _ parts: [String],
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(decoded.result.status == 1, "\(decoded.result.stderr)", sourceLocation: sourceLocation)
        #expect(decoded.written == nil, "a file was written", sourceLocation: sourceLocation)
        #expect(decoded.result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(decoded.result.stderrLines.count == 1, "\(decoded.result.stderr)", sourceLocation: sourceLocation)
        for part in parts {
            #expect(decoded.result.stderr.contains(part), "no '\(part)' in: \(decoded.result.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test("a whole recording of three segments: decode -o puts the file back together byte for byte, exit 0")
    func whole() throws {
        let recording = try Self.recording(seed: 21)
        let decoded = try Self.decode(recording.signal)
        #expect(decoded.result.status == 0, "\(decoded.result.stderr)")
        #expect(decoded.written == recording.file)
        #expect(decoded.result.stderr.contains("cable: 24000 bytes in 3 segment(s), all intact; wrote "), "\(decoded.result.stderr)")
    }

    @Test("cut inside a frame of the last segment, inside the second segment, before the second segment's header ends",
          arguments: ["last frame", "second segment", "header"])
    func truncated(where cut: String) throws {
        let recording = try Self.recording(seed: 22)
        let end = switch cut {
        case "last frame": recording.frameStart(segment: 2, frame: 1) + 700
        case "second segment": recording.frameStart(segment: 1, frame: 1) + 1500
        default: recording.headerStart(segment: 1) + 1000
        }
        let decoded = try Self.decode(Array(recording.signal[..<end]))
        switch cut {
        case "last frame":
            Self.expectRefused(decoded, ["incomplete: 18000 of 24000 bytes in 2 segment(s), 6000 missing",
                                         "the recording ends inside a segment: 1 frame(s) cut off"])
        case "second segment":
            Self.expectRefused(decoded, ["incomplete: 9000 of 24000 bytes in 1 segment(s), 15000 missing",
                                         "the recording ends inside a segment: 2 frame(s) cut off"])
        default:
            Self.expectRefused(decoded, ["incomplete: 9000 of 24000 bytes in 1 segment(s), 15000 missing",
                                         "the recording ends before a segment's header"])
        }
    }

    @Test("one frame scrambled, or hit by an impulse burst: that segment fails its check, nothing written",
          arguments: [true, false])
    func corruptedFrame(scramble: Bool) throws {
        var recording = try Self.recording(seed: 23)
        recording.corrupt(at: recording.frameStart(segment: 1, frame: 1), length: recording.modulator.geometry.symbolSamples,
                          scramble: scramble, seed: 24)
        Self.expectRefused(try Self.decode(recording.signal),
                           ["incomplete: 15000 of 24000 bytes in 2 segment(s), 9000 missing; 1 transmission(s) lost"])
    }

    @Test("the first segment's header scrambled: no header read, nothing written; the start is not taken for a late one")
    func corruptedHeader() throws {
        var recording = try Self.recording(seed: 25)
        recording.corrupt(at: recording.headerStart(segment: 0), length: recording.modulator.geometry.symbolSamples,
                          scramble: true, seed: 26)
        let decoded = try Self.decode(recording.signal)
        Self.expectRefused(decoded, ["incomplete: 15000 of 24000 bytes in 2 segment(s), 9000 missing; 1 transmission(s) lost"])
        #expect(!decoded.result.stderr.contains("never heard"))
    }

    @Test("an `encode --profile cable` file cut in the middle: the frames cut off and the bytes that were intact, nothing written")
    func plainCut() throws {
        let input = ModemCommandLineTests.temporaryPath("plain.bin")
        let wav = ModemCommandLineTests.temporaryPath("plain.wav")
        defer { for path in [input, wav] { try? FileManager.default.removeItem(atPath: path) } }
        var random = SeededRandom(seed: 27)
        #expect(FileManager.default.createFile(atPath: input, contents: Data((0..<20_000).map { _ in UInt8(truncatingIfNeeded: random.next()) })))
        let encoded = try runCommand(["encode", "--profile", "cable", "--file", input, "-o", wav])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let samples = try AudioFileReader(path: wav).readChannel(0)
        let decoded = try Self.decode(Array(samples[..<(samples.count / 2)]))
        Self.expectRefused(decoded, ["cut off by the end of the recording)", "of 20000 bytes intact; nothing delivered"])
    }

    @Test("wrong profiles: a cable file as ultrasonic and an ultrasonic file as cable name what the file holds, exit 1")
    func wrongProfiles() throws {
        let cable = try Self.recording(seed: 28)
        Self.expectRefused(try Self.decode(cable.signal, extra: ["--profile", "ultrasonic"]),
                           ["no message found in", "it holds a cable transmission (--profile cable)"])
        let wav = ModemCommandLineTests.temporaryPath("ultrasonic.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let encoded = try runCommand(["encode", "meet at the stage door", "--profile", "ultrasonic", "-o", wav])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        Self.expectRefused(try Self.decode(try AudioFileReader(path: wav).readChannel(0), extra: ["--profile", "cable"]),
                           ["no cable transmission found; it holds a message of profile ultrasonic (--profile ultrasonic)"])
    }
}
