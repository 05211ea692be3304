import ToneDSP
import ToneModem

/// The node's parameters (`tonenode run`, and the parts of it that `send`,
/// `receive` and `demo` open): one declaration each. `NodeSettings` takes
/// its defaults here, the option groups their flags and help, control lines
/// and OSC their command names, a session file its keys, and
/// `SettingsProblem` the names its sentences start with.
///
/// Adding a parameter: one entry here (and in `node`, or `all` for a command's own), plus its use.
public enum Parameters {
    // MARK: - The tone

    public static let frequency = Parameter<Double>(
        "tone frequency", unit: "Hz", default: ToneGenerator.defaultFrequencyHz, range: ToneFrequency.rangeHz,
        help: "Tone frequency in Hz, below the server's Nyquist frequency.",
        flag: "--freq", valueName: "hz", setting: \NodeSettings.frequencyHz, session: [.required("frequencyHz", \.frequencyHz)],
        control: "freq", lv2: .generator("frequency"))

    /// At or below full scale, however quiet: every finite level plays.
    public static let level = Parameter<Double>(
        "tone level", unit: "dBFS", default: ToneGenerator.defaultLevelDBFS, range: -Double.infinity...0,
        help: "Tone level in dBFS (peak; 0 dBFS is a full-scale sine).",
        flag: "--level", valueName: "dbfs", setting: \NodeSettings.levelDBFS, session: [.required("levelDBFS", \.levelDBFS)],
        control: "level", lv2: .generator("level", sharesRange: true))

    public static let mute = Parameter<Bool>(
        "mute", default: false, help: "Play silence on `out`.", flag: "--mute", setting: \NodeSettings.muted,
        session: [.required("muted", \.muted)], control: "mute", lv2: .generator("mute"))

    /// Click-free changes: a ramp of at least one frame, as long as the LV2 generator's `glide` may be.
    public static let glide = Parameter<Double>(
        "glide time", unit: "s", default: ToneGenerator.defaultRampSeconds, range: ToneGenerator.rampSecondsRange,
        rangeWording: .from("a number of seconds"),
        help: "Seconds a frequency or level change glides over (\(span(ToneGenerator.rampSecondsRange)); 0: one sample).",
        flag: "--glide", valueName: "seconds", setting: \NodeSettings.glideSeconds,
        session: [.added("glideSeconds", \.glideSeconds)], control: "glide", lv2: .generator("glide", sharesRange: true))

    // MARK: - The analysis

    public static let fftSize = Parameter<Int>(
        "analysis window", unit: "samples", default: ToneEstimatorConfiguration.defaultFFTSize,
        range: ToneEstimatorConfiguration.fftSizeRange.asDoubles,
        help: "Analysis window in samples (a power of two, \(span(ToneEstimatorConfiguration.fftSizeRange.asDoubles))).",
        flag: "--fft-size", valueName: "n", setting: \NodeSettings.fftSize, session: [.required("fftSize", \.fftSize)])

    public static let hop = Parameter<Int>(
        "hop", unit: "samples", default: ToneEstimatorConfiguration.defaultHopFrames,
        help: "Samples between reports (1…fft-size).", flag: "--hop", valueName: "n",
        setting: \NodeSettings.hopFrames, session: [.required("hopFrames", \.hopFrames)])

    /// Its default is the lower edge; the upper edge's is the server's Nyquist frequency.
    private static let defaultLowHz = ToneEstimatorConfiguration.defaultLowHz
    public static let band = Parameter<Double>(
        "analysis band", unit: "Hz", default: defaultLowHz,
        help: "Only look for tones between LO and HI Hz (default \(format(defaultLowHz)) Hz to Nyquist).",
        flag: "--band", valueName: "lo:hi", session: [.required("lowHz", \.lowHz), .added("highHz", \.highHz)],
        lv2: .analyzer("low"))

    public static let snrMin = Parameter<Double>(
        "no-tone gate", unit: "dB", default: ToneEstimatorConfiguration.defaultSnrMinDB,
        help: "No-tone gate: a tone must carry at least this SNR in dB (the tone against the rest of the window, "
            + "other reported tones excepted).", flag: "--snr-min", valueName: "db",
        setting: \NodeSettings.snrMinDB, session: [.required("snrMinDB", \.snrMinDB)])

    public static let tones = Parameter<Int>(
        "tones per window", default: 1, range: (1...ToneEstimatorConfiguration.maxTonesLimit).asDoubles, rangeWording: .between,
        help: "Report up to K tones per window, strongest first, each with its own frequency, level and SNR "
            + "(JSON: a `tones` array; each tone passes the same no-tone gates).",
        flag: "--tones", valueName: "k", setting: \NodeSettings.maxTones, session: [.required("maxTones", \.maxTones)])

    public static let mode = Parameter<AnalysisMode>(
        "analysis mode", default: .tone,
        help: """
            tone: the most prominent single tone (frequency, level, SNR). \
            pitch: the fundamental of a musical sound, also when it is missing, with note and cents \
            relative to --a4; --band LO:HI then bounds the fundamental (default \(format(PitchDetectorConfiguration.defaultLowHz)):\(format(PitchDetectorConfiguration.defaultHighHz))).
            """, flag: "--mode", valueName: "mode", setting: \NodeSettings.mode, session: [.added("mode", \.mode)],
            lv2: .analyzer("mode"))

    /// `--band` in pitch mode; its default is the lower edge (the upper is `PitchDetectorConfiguration.defaultHighHz`).
    public static let pitchRange = Parameter<Double>(
        "pitch range", unit: "Hz", default: PitchDetectorConfiguration.defaultLowHz,
        help: "With --mode pitch, --band LO:HI bounds the fundamental.",
        flag: "--band", valueName: "lo:hi", session: [.added("pitchLowHz", \.pitchLowHz), .added("pitchHighHz", \.pitchHighHz)],
        lv2: .analyzer("pitch_low"))

    /// Not set by ToneNode: the server's (or the file's). Its range is what the estimator is tuned for.
    public static let sampleRate = Parameter<Double?>(
        "sample rate", unit: "Hz", default: nil, range: ToneEstimatorConfiguration.sampleRateRangeHz,
        help: "The rate of the JACK server or the file; ToneNode does not choose it.", flag: nil)

    // MARK: - Ports and tuning

    public static let channels = Parameter<Int>(
        "audio channels", default: 1, range: (1...AudioChannels.maximum).asDoubles, rangeWording: .from(nil),
        help: "Audio channels: 1 gives ports `in`/`out`; 2 or more give `in_1`, `in_2`…, `out_1`, `out_2`… "
            + "(every output plays the tone, every input is analysed and reported on its own).",
        flag: "--channels", valueName: "n", setting: \NodeSettings.channels, session: [.required("channels", \.channels)])

    public static let a4 = Parameter<Double>(
        "A4", unit: "Hz", default: EqualTemperament.standardA4Hz, range: EqualTemperament.a4RangeHz,
        rangeWording: .from("a frequency in Hz"),
        help: "Frequency of A4 in Hz for note names, cents and MIDI notes (\(span(EqualTemperament.a4RangeHz))).",
        flag: "--a4", valueName: "hz", setting: \NodeSettings.a4Hz, session: [.required("a4Hz", \.a4Hz)],
        lv2: .analyzer("a4", sharesRange: true))

    /// The longest steady span a reading integrates (`SteadySpan`); 0 turns it off.
    public static let steady = Parameter<Double>(
        "steady span", unit: "s", default: SteadySpan.defaultMaxSeconds, range: SteadySpan.maxSecondsRange,
        rangeWording: .from("a number of seconds"),
        help: """
            While one tone holds steady, read its frequency over up to this many seconds of it, not one window \
            (the error falls as the span^1.5; a change of note, of level by 3 dB or of the tone's presence \
            goes back to one window within a hop) (\(span(SteadySpan.maxSecondsRange)); 0: off, every reading one window).
            """,
        flag: "--steady", valueName: "seconds", setting: \NodeSettings.steadySpanSeconds,
        session: [.added("steadySpanSeconds", \.steadySpanSeconds)], lv2: .analyzer("steady", sharesRange: true))

    /// Two octaves either way: as far as any synth's bend range goes.
    private static let bendRangeLimit: ClosedRange<Double> = 0...24
    public static let bendRange = Parameter<Double>(
        "pitch-bend range", unit: "semitones", default: ToneGenerator.defaultBendRangeSemitones, range: bendRangeLimit,
        rangeWording: .from("a number of semitones"),
        help: "Pitch-bend range on `midi_in`, in semitones either way (\(span(bendRangeLimit))).",
        flag: "--bend-range", valueName: "semitones", setting: \NodeSettings.bendRangeSemitones,
        session: [.added("bendRangeSemitones", \.bendRangeSemitones)])

    public static let connectIn = Parameter<[String]>(
        "connect-in", default: [], help: "Connect this port to our `in` after activation (repeatable).",
        flag: "--connect-in", valueName: "port")

    public static let connectOut = Parameter<[String]>(
        "connect-out", default: [], help: "Connect our `out` to this port after activation (repeatable).",
        flag: "--connect-out", valueName: "port")

    public static let connectMidi = Parameter<[String]>(
        "connect-midi", default: [], help: "Connect this MIDI port to our `midi_in` after activation (repeatable).",
        flag: "--connect-midi", valueName: "port")

    public static let loopback = Parameter<Bool>(
        "loopback", default: false,
        help: "Connect our own `out` to our own `in` (each channel's), whatever name JACK gave the client.",
        flag: "--loopback")

    // MARK: - Running

    public static let duration = Parameter<Double?>(
        "duration", unit: "s", default: nil, range: .leastNonzeroMagnitude...Double.infinity,
        help: "Stop after this many seconds of audio (default: run until stopped).", flag: "--duration", valueName: "seconds")

    /// A UDP port number (`-O` too).
    public static let oscPort = Parameter<Int?>(
        "OSC port", default: nil, range: 1...65535,
        help: "Listen for OSC over UDP on this port: "
            + ControlCommand.usage.map { "\(ControlCommand.oscPrefix)\($0.name) \($0.oscTypes)" }.joined(separator: ", ") + ".",
        flag: "--osc-port", valueName: "port")

    // MARK: - Messages as tones

    public static let message = Parameter<String?>(
        "message", default: nil,
        help: "Send this message once on `out` right after start, added to the tone (add --mute to send it alone).",
        flag: "--send", valueName: "text")

    public static let sendProfile = Parameter<MessageFileProfile>(
        "message profile", default: .tones(.ultrasonic),
        help: "Band and speed of --send; cable: OFDM for cables, the text as one cable transmission (needs --mute).", flag: "--send-profile")

    public static let sendLevel = Parameter<Double>(
        "message level", unit: "dBFS", default: Message.level.defaultValue, range: Message.level.range,
        help: "Peak level of --send in dBFS (≤ \(format(0))).", flag: "--send-level", valueName: "dbfs")

    public static let receive = Parameter<Bool>(
        "receive", default: false,
        help: "Also decode messages sent as tones on `in`; each is printed on stdout as `receive` prints it, beside the reports.",
        flag: "--receive", setting: \NodeSettings.receivesMessages, session: [.added("receivesMessages", \.receivesMessages)])

    public static let receiveProfiles = Parameter<[ModemProfile]?>(
        "message profiles", default: nil, help: "Listen only for this profile.", flag: "--profile")

    public static let runReceiveProfile = Parameter<MessageFileProfile?>(
        "received profile", default: nil,
        help: "With --receive, listen only for this profile (cable: OFDM segments, a file whole); implies --receive. "
            + "Default: every tone profile the sample rate carries.",
        flag: "--receive-profile")

    // MARK: - The node's settings

    /// The settings a running node keeps (`NodeSettings`), each door walking
    /// them: a session file holds their `sessionFields` in this order (the
    /// first version's keys first, as it wrote them), `NodeSettings.problems`
    /// checks their worded ranges in this order, and control lines and OSC
    /// take those with a control name (`ControlCommand.usage`).
    public static let node: [any ParameterDeclaration] = [
        frequency, level, mute, fftSize, hop, band, snrMin, tones, a4, channels, mode, pitchRange, bendRange, receive,
        glide, steady,
    ]
}
