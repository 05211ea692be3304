import ArgumentParser
import Testing
@testable import tonenode

/// Negative numbers are values: `--level -12` works as written, and a
/// negative value where none makes sense names the option and its range
/// instead of ArgumentParser's "Missing value".
@Suite("Negative numbers as option values")
struct NegativeValueTests {
    @Test("a negative level or threshold is accepted as written", arguments: [
        ["run", "--level", "-12"],
        ["run", "--send-level", "-6", "--send", "hi"],
        ["run", "--snr-min", "-10"],
        ["run", "--snr-min", "-10", "--level", "-3", "--freq", "440"],
        ["analyze", "a.wav", "--snr-min", "-10"],
        ["send", "hi", "--level", "-6"],
        ["encode", "hi", "-o", "a.wav", "--level", "-6"],
        ["measure", "--level", "-20"],
    ])
    func accepted(arguments: [String]) throws {
        _ = try ToneNodeCommand.parseAsRoot(arguments)
    }

    @Test("a negative value where none makes sense names the option", arguments: [
        (["run", "--freq", "-5"], "--freq"),
        (["run", "--duration", "-1"], "--duration"),
        (["run", "--channels", "-1"], "--channels"),
        (["run", "--osc-port", "-1"], "--osc-port"),
        (["run", "--bend-range", "-1"], "--bend-range"),
        (["run", "--fft-size", "-1"], "--fft-size"),
        (["run", "--hop", "-1"], "--hop"),
        (["run", "--tones", "-1"], "--tones"),
        (["run", "--a4", "-440"], "--a4"),
        (["analyze", "a.wav", "--channel", "-1"], "--channel"),
        (["decode", "a.wav", "--channel", "-1"], "--channel"),
        (["encode", "hi", "-o", "a.wav", "--rate", "-48000"], "--rate"),
        (["measure", "--freq", "-5"], "--freq"),
        (["measure", "--sweep-start", "-5"], "--sweep-start"),
        (["measure", "--sweep-end", "-5"], "--sweep-end"),
        (["measure", "--sweep-seconds", "-1"], "--sweep-seconds"),
        (["measure", "--max-latency", "-1"], "--max-latency"),
        (["receive", "--duration", "-1"], "--duration"),
        (["receive", "--count", "-1"], "--count"),
    ])
    func refused(arguments: [String], option: String) {
        do {
            _ = try ToneNodeCommand.parseAsRoot(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            let message = ToneNodeCommand.message(for: error)
            #expect(!message.contains("Missing value"), "\(arguments): \(message)")
            #expect(message.contains(option), "\(arguments): \(message)")
            #expect(ToneNodeCommand.exitCode(for: error).rawValue == 64, "\(arguments): \(message)")
        }
    }
}
