import Testing
import ToneCore
import ToneDSP

/// The numbers `--help` states come from the constants the code runs on:
/// each is checked against what the code does.
@Suite("Numbers in help texts")
struct HelpNumbersTests {
    typealias Plan = MeasurementSignal.Plan

    /// How many seconds longer a measurement makes a run at 48 kHz.
    static func extraSeconds(_ change: (inout Plan) -> Void) -> Double {
        let plain = Plan(sampleRateHz: 48_000)
        var more = plain
        change(&more)
        return Double(MeasurementSignal(plan: more).recordingFrames - MeasurementSignal(plan: plain).recordingFrames) / 48_000
    }

    @Test("--what's noise, imd and levels times are what they add to a run")
    func measureTimes() {
        let what = Parameters.Measure.what.help
        let noise = Self.extraSeconds { $0.noiseSeconds = Plan.defaultNoiseSeconds }
        #expect(abs(noise - Plan.noiseExtraSeconds()) < 1e-3, "noise adds \(noise) s")
        #expect(what.contains("hum lines; \(format(noise)) s more"))
        let imd = Self.extraSeconds { $0.imdSeconds = Plan.defaultIMDSeconds }
        #expect(abs(imd - Plan.imdExtraSeconds) < 1e-3 && what.contains("intermodulation; \(format(imd)) s more"))
        let steps = LevelSweepAnalyzer.defaultStepsDBFS
        #expect(what.contains("\(format(steps[0]))…\(format(steps[steps.count - 1])) dBFS in \(format(steps[1] - steps[0])) dB steps"))
        #expect(what.contains("steps of \(format(Plan(sampleRateHz: 48_000).levelStepSeconds)) s"))
        let spacing = format(Plan(sampleRateHz: 48_000).midiNoteSpacingSeconds)
        #expect(what.contains("notes \(spacing) s apart") && Parameters.Measure.midiNotes.help.contains("one every \(spacing) s"))
    }

    @Test("defaults shared with the DSP: the no-tone gate, the probe level, the pitch cap")
    func sharedDefaults() {
        #expect(Parameters.snrMin.defaultValue == ToneEstimatorConfiguration(sampleRateHz: 48_000).snrMinDB)
        #expect(Parameters.Link.level.defaultValue == LinkProbe(sampleRateHz: 48_000).levelDBFS)
        var settings = NodeSettings()
        settings.pitchHighHz = 1e6
        #expect(settings.pitchConfiguration(sampleRateHz: 48_000).highHz == PitchDetectorConfiguration.highestHz(sampleRateHz: 48_000))
        #expect(PitchDetectorConfiguration.highestHz(sampleRateHz: 48_000) == 12_000)
    }
}
