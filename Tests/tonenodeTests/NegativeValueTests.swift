import ArgumentParser
import Testing
@testable import tonenode
@testable import ToneFileCommands

/// Negative numbers are values: `--level -12` works as written, and a
/// negative value where none makes sense names the option and its range
/// instead of ArgumentParser's "Missing value".
@Suite("Negative numbers as option values")
struct NegativeValueTests {
    @Test("a negative level or threshold is accepted as written, and parses to the value written", arguments: [
        (["run", "--level", "-12"], ["--level": -12]),
        (["run", "--send-level", "-6", "--send", "hi"], ["--send-level": -6]),
        (["run", "--snr-min", "-10"], ["--snr-min": -10]),
        (["run", "--snr-min", "-10", "--level", "-3", "--freq", "440"], ["--snr-min": -10, "--level": -3, "--freq": 440]),
        (["analyze", "a.wav", "--snr-min", "-10"], ["--snr-min": -10]),
        (["send", "hi", "--level", "-6"], ["--level": -6]),
        (["encode", "hi", "-o", "a.wav", "--level", "-6"], ["--level": -6]),
        (["measure", "--level", "-20"], ["--level": -20]),
    ] as [([String], [String: Double])])
    func accepted(arguments: [String], written: [String: Double]) throws {
        let parsed = Self.values(try ToneNodeCommand.parseAsRoot(arguments))
        for (option, value) in written {
            // Exactly the number written: a sign lost or a default kept fails here.
            #expect(parsed[option] == value, "\(arguments): \(option) parsed as \(parsed[option].map { "\($0)" } ?? "nothing")")
        }
    }

    /// The values of the options above, read back from the parsed command by option name.
    static func values(_ command: ParsableCommand) -> [String: Double] {
        switch command {
        case let run as RunCommand:
            ["--level": run.tone.level, "--freq": run.tone.freq, "--send-level": run.messages.sendLevel,
             "--snr-min": run.analysis.snrMin]
        case let analyze as AnalyzeCommand: ["--snr-min": analyze.analysis.snrMin]
        case let send as SendCommand: ["--level": send.level]
        case let encode as EncodeCommand: ["--level": encode.level]
        case let measure as MeasureCommand: ["--level": measure.level]
        default: [:]
        }
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
