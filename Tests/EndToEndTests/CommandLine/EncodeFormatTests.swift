import EndToEndSupport
import Foundation
import Testing

/// `encode -o FILE` writes the format FILE's extension names; each one decodes
/// back to the message, and sox reads the WAV without a warning.
@Suite("encode writes the format its extension names")
struct EncodeFormatTests {
    static let directory = NSTemporaryDirectory() + "tn-encode-formats-\(getpid())"

    @Test(arguments: [("wav", "RIFF"), ("flac", "fLaC"), ("aiff", "FORM"), ("ogg", "OggS")])
    func format(extension ext: String, magic: String) throws {
        try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
        let path = Self.directory + "/message." + ext
        let encoded = try runCommand(["encode", "formats \(ext)", "--profile", "audible", "-o", path])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(String(decoding: bytes.prefix(4), as: UTF8.self) == magic)
        let decoded = try runCommand(["decode", path, "--json"])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout.contains("\"text\":\"formats \(ext)\""))
    }

    @Test("sox reads the WAV without a warning")
    func soxReadsWAV() throws {
        try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
        let path = Self.directory + "/sox.wav"
        #expect(try runCommand(["encode", "for sox", "-o", path]).status == 0)
        let sox = try runCommand([path, "-n", "stat"], executable: "sox")
        #expect(sox.status == 0)
        #expect(!sox.stderr.contains("WARN"), "\(sox.stderr)")
    }

    @Test("an extension that names no format is refused before anything is written")
    func unknownExtension() throws {
        let result = try runCommand(["encode", "x", "-o", Self.directory + "/message.mp3"])
        #expect(result.status == 64)
        #expect(result.stderrLines == ["tonenode: error: --output \(Self.directory)/message.mp3: name the format with its extension: "
                                       + ".wav, .flac, .aiff or .ogg"])
    }
}
