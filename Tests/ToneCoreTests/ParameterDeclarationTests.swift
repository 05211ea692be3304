import Foundation
import Testing
import ToneCore
import ToneDSP

/// Every parameter declaration against the doors it names: session files,
/// control lines and OSC, and the texts of `SettingsProblem`. (The command
/// line's side is in tonenodeTests, which can see the parser.)
@Suite("Parameter declarations")
struct ParameterDeclarationTests {
    @Test("each declaration is described and named where it can be set")
    func described() {
        for parameter in Parameters.all {
            #expect(!parameter.name.isEmpty)
            #expect(parameter.help.count > 10, "\(parameter.name)")
            #expect(parameter.flag == nil || parameter.flag?.hasPrefix("--") == true, "\(parameter.name)")
            #expect(parameter.flag != nil || parameter.sessionKey != nil || parameter.controlName != nil
                    || parameter.name == Parameters.sampleRate.name, "\(parameter.name) can be set nowhere")
        }
    }

    @Test("each default is one of the declaration's own values")
    func defaultsInRange() {
        for parameter in Parameters.all {
            if let double = parameter as? Parameter<Double>, double.range != nil {
                #expect(double.accepts(double.defaultValue), "\(double.name) default \(double.defaultValue)")
            }
            if let int = parameter as? Parameter<Int>, int.range != nil {
                #expect(int.accepts(Double(int.defaultValue)), "\(int.name) default \(int.defaultValue)")
            }
        }
    }

    @Test("a problem with any declared setting names it as each door does")
    func problemNames() {
        for parameter in Parameters.all {
            let problem = SettingsProblem(SettingsProblem.Setting(parameter), .notFiniteDB(.nan))
            #expect(problem.description.hasPrefix(parameter.flag ?? parameter.name), "\(problem.description)")
            #expect(problem.sessionDescription.hasPrefix(parameter.sessionKey ?? parameter.flag ?? parameter.name),
                    "\(problem.sessionDescription)")
        }
    }

    @Test("a declared range with its wording is checked through the declaration's key path")
    func rangesFromDeclarations() {
        let worded = Parameters.all.filter { $0.rangeRequirement != nil }
        #expect(worded.count >= 4)
        for parameter in worded {
            #expect(parameter.rangeProblem(in: NodeSettings()) == nil, "\(parameter.name): its default is refused")
        }
    }

    @Test("every session key round-trips through a session file, and every saved field is declared")
    func sessionKeys() throws {
        var settings = NodeSettings()
        settings.highHz = 10_000
        let data = try SessionSettings(settings).encoded()
        let keys = Set(try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]).keys)
        let declared = Parameters.all.flatMap(\.sessionFields).map(\.key)
        for key in declared { #expect(keys.contains(key), "\(key) is not written") }
        #expect(Set(declared) == keys, "saved but undeclared: \(keys.subtracting(declared))")
        #expect(try SessionSettings.decode(data).settings == SessionSettings(settings).settings)
    }

    @Test("every control name is a command of the control language, on a line and over OSC")
    func controlNames() throws {
        let named = Parameters.all.compactMap(\.controlName)
        #expect(named.count == 4)
        for name in named {
            #expect(ControlCommand.usage.contains { $0.name == name })
            for spelling in [name, ControlCommand.oscPrefix + name] {
                // `freq 0` is refused, but for its value, not its name.
                do { _ = try ControlCommand.parse("\(spelling) 0") } catch {
                    #expect(!error.description.contains("unknown command"), "\(error)")
                }
            }
        }
        do {
            _ = try ControlCommand.parse("bogus 0")
            Issue.record("an undeclared name was accepted")
        } catch {
            #expect(error.description.contains("unknown command"))
        }
        #expect(try ControlCommand.parse("\(Parameters.frequency.controlName ?? "") 440") == .frequency(hz: 440))
        #expect(try ControlCommand.parse("\(Parameters.level.controlName ?? "") -6") == .level(dbfs: -6))
        #expect(try ControlCommand.parse("\(Parameters.mute.controlName ?? "") on") == .mute(true))
        #expect(try ControlCommand.parse("\(Parameters.glide.controlName ?? "") 0.05") == .glide(seconds: 0.05))
    }

    @Test("an out-of-range value's error names the declaration and states its range")
    func errorsFromDeclarations() {
        var settings = NodeSettings()
        settings.channels = AudioChannels.maximum + 1
        settings.a4Hz = 1000
        let problems = settings.problems(sampleRateHz: nil).map(\.description)
        let channels = Parameters.channels
        #expect(problems.contains("\(channels.flag ?? "") \(AudioChannels.maximum + 1) must be from \(channels.rangeText())"))
        #expect(channels.rangeText() == "1 to \(AudioChannels.maximum)")
        #expect(problems.contains { $0.hasPrefix(Parameters.a4.flag ?? "-") && $0.hasSuffix(Parameters.a4.rangeText()) })
        do {
            _ = try ControlCommand.parse("\(Parameters.level.controlName ?? "") 3")
            Issue.record("level 3 was accepted")
        } catch {
            #expect(error.description.contains(Parameters.level.controlName ?? "-"))
            #expect(error.description.hasSuffix("at or below \(Parameters.level.maximumText)"))
        }
    }

    @Test("measure's rules name their flags and ranges")
    func measureRules() {
        var measure = MeasureSettings()
        #expect(measure.problems().isEmpty)
        measure.sweepSeconds = 100
        measure.midiNotes = 0
        let sweep = Parameters.Measure.sweepSeconds, notes = Parameters.Measure.midiNotes
        #expect(measure.problems().map(\.description) == ["\(sweep.flag ?? "") must be from \(sweep.rangeText())",
                                       "\(notes.flag ?? "") must be from \(notes.rangeText())"])
        measure = MeasureSettings()
        measure.sweepEndHz = measure.sweepStartHz * 1.5
        #expect(measure.problems().first?.description.hasPrefix(Parameters.Measure.sweepEnd.flag ?? "-") == true)
    }

    @Test("a tone frequency has one rule: the node's settings and measure's plan agree on every value",
          arguments: [-1, 0, .nan, .infinity, 1, 1000, 23_999, 24_000, 30_000] as [Double])
    func frequencyRule(hz: Double) {
        #expect(Parameters.frequency.range == ToneFrequency.rangeHz && Parameters.Measure.frequency.range == ToneFrequency.rangeHz)
        var plan = MeasurementSignal.Plan(sampleRateHz: 48_000)
        plan.toneFrequencyHz = hz
        let nodeAccepts = NodeSettings.frequencyProblem(hz, sampleRateHz: 48_000) == nil
        #expect(nodeAccepts == (plan.problem == nil), "\(hz) Hz: node \(nodeAccepts), plan \(plan.problem ?? "fine")")
        #expect(nodeAccepts == ToneFrequency.plays(hz, sampleRateHz: 48_000))
        #expect(Parameters.frequency.accepts(hz) == (hz.isFinite && hz > 0))
    }
}
