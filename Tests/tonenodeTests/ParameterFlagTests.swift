import ArgumentParser
import Testing
import ToneCore
import ToneCommandLine
import ToneDSP
@testable import tonenode

/// Every declared flag against the real command line: it is listed with its
/// declared help, it parses, and an out-of-range value's error states the
/// declaration's flag and range.
@Suite("Parameter declarations on the command line")
struct ParameterFlagTests {
    /// Every subcommand's `--help`, unwrapped (one option per line).
    static let helpTexts: [String] = ToneNodeCommand.configuration.subcommands.map {
        ToneNodeCommand.helpMessage(for: $0, includeHidden: true, columns: 100_000)
    }

    /// `--band` in pitch mode: its own declaration for the session keys and
    /// errors; the command line describes it in `--mode`'s help.
    static let describedElsewhere = [Parameters.pitchRange.name]

    @Test("every declared flag is listed by some command, with the declaration's help")
    func flagsListed() {
        for parameter in Parameters.all {
            guard let flag = parameter.flag else { continue }
            // A long label puts its help on the next line.
            let entries = Self.helpTexts.flatMap { text in
                let lines = text.split(separator: "\n").map(String.init)
                return lines.indices.filter { lines[$0].hasPrefix("  \(flag)") || lines[$0].contains(", \(flag)") }
                    .map { lines[$0] + (lines.indices.contains($0 + 1) ? lines[$0 + 1] : "") }
            }
            #expect(!entries.isEmpty, "\(flag) is in no command's --help")
            guard !Self.describedElsewhere.contains(parameter.name) else { continue }
            #expect(entries.contains { $0.contains(parameter.help) }, "\(flag): '\(parameter.help)' is not its help")
        }
    }

    @Test("an out-of-range value's error names the flag and the declared range", arguments: [
        (["run"], Parameters.channels), (["run"], Parameters.tones), (["run"], Parameters.a4),
        (["run"], Parameters.bendRange), (["run"], Parameters.sendLevel), (["run"], Parameters.glide),
        (["measure"], Parameters.Measure.channels), (["measure"], Parameters.Measure.sweepSeconds),
        (["measure"], Parameters.Measure.maxLatency), (["measure"], Parameters.Measure.midiNotes),
        (["audit", "--connect-in", "a:b", "--connect-out", "c:d"], Parameters.Audit.sweepSeconds),
        (["demo"], Parameters.Demo.level), (["send", "hi"], Parameters.Message.level),
        (["encode", "hi", "-o", "a.wav"], Parameters.Message.level), (["encode", "hi", "-o", "a.wav"], Parameters.Message.fileRate),
    ] as [([String], any ParameterDeclaration)])
    func rangeErrors(command: [String], parameter: any ParameterDeclaration) throws {
        let flag = try #require(parameter.flag)
        let (range, text): (ClosedRange<Double>?, String) = switch parameter {
        case let double as Parameter<Double>: (double.range, double.rangeText(double.name.contains("level") ? "and" : "to"))
        case let int as Parameter<Int>: (int.range, int.rangeText(int.name == Parameters.tones.name || int.flag == "--rate" ? "and" : "to"))
        default: (nil, "")
        }
        let upper = try #require(range?.upperBound)
        let value = upper == upper.rounded() ? String(Int(upper) + 1) : String(upper + 1)
        do {
            _ = try ToneNodeCommand.parseAsRoot(command + [flag, value])
            Issue.record("\(command) \(flag) \(value) was accepted")
        } catch {
            let message = ToneNodeCommand.message(for: error)
            #expect(message.hasPrefix(flag), "\(message)")
            #expect(message.contains(text), "\(message) does not state \(text)")
        }
    }

    @Test("every declared default is what the parser gives when the flag is left out")
    func defaults() throws {
        let run = try #require(try ToneNodeCommand.parseAsRoot(["run"]) as? RunCommand)
        #expect(run.tone.freq == Parameters.frequency.defaultValue && run.tone.level == Parameters.level.defaultValue)
        #expect(run.analysis.fftSize == Parameters.fftSize.defaultValue && run.analysis.hop == Parameters.hop.defaultValue)
        #expect(run.tuning.a4 == Parameters.a4.defaultValue && run.control.bendRange == Parameters.bendRange.defaultValue)
        #expect(run.tone.glide == Parameters.glide.defaultValue)
        var settings = NodeSettings()
        run.tone.apply(to: &settings)
        run.analysis.apply(to: &settings)
        #expect(settings == NodeSettings())
        let measure = try #require(try ToneNodeCommand.parseAsRoot(["measure"]) as? MeasureCommand)
        #expect(measure.settings == MeasureSettings())
    }

    @Test("--what: ArgumentParser parses the list (any case, spaces, `all`), a bad one is one line")
    func whatList() throws {
        let chosen = try #require(try ToneNodeCommand.parseAsRoot(["measure", "--what", "Noise, harmonics"]) as? MeasureCommand)
        #expect(chosen.what.kinds == [.harmonics, .noise])
        let all = try #require(try ToneNodeCommand.parseAsRoot(["measure", "--what", "all"]) as? MeasureCommand)
        #expect(all.what.kinds == [.response, .harmonics, .levels, .noise, .imd])
        let plain = try #require(try ToneNodeCommand.parseAsRoot(["measure"]) as? MeasureCommand)
        #expect(plain.what == .default && plain.what.kinds == [.response])
        for bad in ["bogus", "harmonics,", ""] {
            do {
                _ = try ToneNodeCommand.parseAsRoot(["measure", "--what", bad])
                Issue.record("--what '\(bad)' was accepted")
            } catch {
                let message = ToneNodeCommand.message(for: error)
                #expect(!message.contains("\n") && message.hasSuffix("give a comma-separated list of "
                    + "response, harmonics, levels, noise, imd, crosstalk, midi, all"), "\(message)")
            }
        }
    }
}
