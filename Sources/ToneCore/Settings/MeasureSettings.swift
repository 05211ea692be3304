import ToneDSP

/// `tonenode measure`'s options as the user gave them, and the one home of
/// their rules (as `SettingsProblem`s, the one error type of every option's
/// rule): the command's `validate()` asks `problems()` before any JACK
/// work; what needs the server's rate waits for `MeasurementSignal.Plan`.
/// Defaults, ranges and flags come from `Parameters.Measure`.
public struct MeasureSettings: Equatable, Sendable {
    public var levelDBFS = Parameters.Measure.level.defaultValue
    public var toneFrequencyHz = Parameters.Measure.frequency.defaultValue
    public var sweepStartHz = Parameters.Measure.sweepStart.defaultValue
    /// nil: the plan's default for the rate.
    public var sweepEndHz: Double?
    public var sweepSeconds = Parameters.Measure.sweepSeconds.defaultValue
    public var maxLatencySeconds = Parameters.Measure.maxLatency.defaultValue
    public var channels = Parameters.Measure.channels.defaultValue
    public var midiNotes = Parameters.Measure.midiNotes.defaultValue
    /// How many ports `--connect-in`, `--connect-out` and `--connect-midi` name.
    public var connectInCount = 0
    public var connectOutCount = 0
    public var connectMidiCount = 0
    /// `--what` asks for the crosstalk matrix, or for the MIDI latency.
    public var measuresCrosstalk = false
    public var measuresMIDI = false

    public init() {}

    /// Every rule these options break, each naming its flag, in the order a
    /// person would fix them (the first is the one to report).
    public func problems() -> [SettingsProblem] {
        typealias Measure = Parameters.Measure
        typealias Setting = SettingsProblem.Setting
        var found: [SettingsProblem] = []
        if let problem = NodeSettings.levelProblem(levelDBFS) ?? NodeSettings.frequencyProblem(toneFrequencyHz, sampleRateHz: nil) {
            found.append(problem)
        }
        if NodeSettings.frequencyProblem(sweepStartHz, sampleRateHz: nil, setting: .sweepStart) != nil {
            found.append(SettingsProblem(.sweepStart, .unmet("must be a positive number of Hz")))
        } else if let sweepEndHz,
                  !(sweepEndHz.isFinite && MeasurementSignal.Plan.sweepSpansAnOctave(startHz: sweepStartHz, endHz: sweepEndHz)) {
            found.append(SettingsProblem(.sweepEnd, .unmet(
                "must be at least an octave above \(Setting.sweepStart.flag) (\(format(sweepStartHz)) Hz)")))
        }
        if !Measure.sweepSeconds.accepts(sweepSeconds) {
            found.append(SettingsProblem(Setting(Measure.sweepSeconds), .unmet("must be from \(Measure.sweepSeconds.rangeText())")))
        }
        if !Measure.maxLatency.accepts(maxLatencySeconds) {
            found.append(SettingsProblem(Setting(Measure.maxLatency), .unmet("must be from \(Measure.maxLatency.rangeText()) seconds")))
        }
        let channelsFlag = flag(Measure.channels)
        if !Measure.channels.accepts(Double(channels)) {
            found.append(SettingsProblem(Setting(Measure.channels), .unmet("must be from \(Measure.channels.rangeText())")))
        } else if channels > 1, let count = [connectInCount, connectOutCount].first(where: { $0 != 0 && $0 != channels }) {
            found.append(SettingsProblem(Setting(Measure.channels), .between(
                "with \(channelsFlag) \(channels), give \(flag(Parameters.connectIn)) and \(flag(Parameters.connectOut)) "
                + "\(channels) times each (one port per channel), not \(count)")))
        }
        if measuresCrosstalk && channels < 2 {
            found.append(SettingsProblem(Setting(Measure.what), .unmet("crosstalk needs \(channelsFlag) 2 or more")))
        }
        if !Measure.midiNotes.accepts(Double(midiNotes)) {
            found.append(SettingsProblem(Setting(Measure.midiNotes), .unmet("must be from \(Measure.midiNotes.rangeText())")))
        }
        if measuresMIDI && connectMidiCount == 0 {
            found.append(SettingsProblem(Setting(Measure.what), .unmet(
                "midi needs \(flag(Measure.connectMidi)) PORT (the MIDI input of the synth under test)")))
        }
        return found
    }

    private func flag(_ parameter: some ParameterDeclaration) -> String { parameter.commandLineName }
}
