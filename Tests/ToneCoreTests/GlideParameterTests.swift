import Foundation
import Testing
import ToneCore
import ToneDSP

/// The glide time (`--glide`, `glideSeconds`, `glide SECONDS`, `/tonenode/glide`)
/// through each door its declaration opens, down to the generator's ramp.
@Suite("Glide time, end to end")
struct GlideParameterTests {
    @Test("a control line sets it, and the audio thread gets the ramp in frames at the server's rate")
    func controlLine() throws {
        let command = try #require(try ControlCommand.parse("glide 0.05"))
        #expect(command == .glide(seconds: 0.05))
        #expect(command.description == "glide 0.05")
        let changed = try command.applied(to: NodeSettings(), sampleRateHz: 48_000)
        #expect(changed.glideSeconds == 0.05)
        #expect(command.generatorCommand(settings: changed, sampleRateHz: 48_000) == .ramp(frames: 2400))
        // 0: one sample, never a division by zero.
        #expect(GeneratorCommand.ramp(seconds: 0, sampleRateHz: 48_000) == .ramp(frames: 1))
    }

    @Test("outside 0…10 s it is refused in the declaration's words", arguments: ["glide 11", "glide -1", "/tonenode/glide nan"])
    func refused(line: String) {
        do {
            _ = try ControlCommand.parse(line)
            Issue.record("'\(line)' was accepted")
        } catch {
            #expect(error.description.contains("glide: "), "\(error)")
            #expect(error.description.hasSuffix("must be a number of seconds from 0 to 10"), "\(error)")
        }
    }

    @Test("the generator ramps over the frames it is given")
    func generatorRamp() {
        var generator = ToneGenerator(sampleRateHz: 48_000, frequencyHz: 1000, levelAmplitude: 0.5, muted: false, rampFrames: 480)
        generator.apply(.ramp(frames: 4800))
        #expect(generator.voice.rampFrames == 4800)
        generator.apply(.ramp(frames: 0))
        #expect(generator.voice.rampFrames == 1)
    }

    @Test("a session keeps it; a file without the key (an older version's) keeps the default")
    func session() throws {
        try expectSessionKey(\.glideSeconds, "glideSeconds", value: 0.5, defaultValue: ToneGenerator.defaultRampSeconds)
    }

    @Test("the settings' one check refuses it out of range, naming it per door")
    func validation() throws {
        var settings = NodeSettings()
        settings.glideSeconds = 11
        let problem = try #require(settings.problems(sampleRateHz: nil).first)
        #expect(problem.description == "--glide 11.0 must be a number of seconds from 0 to 10")
        #expect(problem.sessionDescription == "glideSeconds 11.0 must be a number of seconds from 0 to 10")
        settings.glideSeconds = 10
        #expect(settings.problems(sampleRateHz: nil).isEmpty)
    }
}
