import EndToEndSupport
import Foundation
import Testing

@Suite("tonenode encode / decode --profile cable")
struct CableCommandLineTests {
    @Test("48 KiB of random bytes: encode --profile cable to a 24-bit WAV, decode -o gives them back byte for byte")
    func roundTrip() throws {
        let input = ModemCommandLineTests.temporaryPath("in.bin")
        let wav = ModemCommandLineTests.temporaryPath("cable.wav")
        let output = ModemCommandLineTests.temporaryPath("out.bin")
        defer { for path in [input, wav, output] { try? FileManager.default.removeItem(atPath: path) } }
        var state: UInt64 = 42
        let bytes = (0..<(48 * 1024)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        #expect(FileManager.default.createFile(atPath: input, contents: Data(bytes)))
        let encoded = try runCommand(["encode", "--file", input, "-o", wav, "--profile", "cable"])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let decoded = try runCommand(["decode", wav, "-o", output])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(FileManager.default.contents(atPath: output).map(Array.init) == bytes)
    }

    @Test("decode -o on a tone-profile file (no cable transmission in it) writes that message's bytes")
    func toneProfileToFile() throws {
        let wav = ModemCommandLineTests.temporaryPath("tones.wav")
        let output = ModemCommandLineTests.temporaryPath("tones.out")
        defer { for path in [wav, output] { try? FileManager.default.removeItem(atPath: path) } }
        let encoded = try runCommand(["encode", "meet at the stage door", "-o", wav])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        // The cable search reads the file first; the tone profiles must read it again.
        let decoded = try runCommand(["decode", wav, "-o", output])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(FileManager.default.contents(atPath: output).map(Array.init) == Array("meet at the stage door".utf8))
    }
}
