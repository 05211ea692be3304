import ToneDSP
import ToneModem

// MARK: - measure, audit, link, demo, send and encode

extension Parameters {
    /// `tonenode measure`: defaults and limits from the plan it plays (`MeasurementSignal.Plan`).
    public enum Measure {
        private typealias Plan = MeasurementSignal.Plan

        /// At or below full scale, as the node's tone.
        public static let level = Parameter<Double>(
            "test level", unit: "dBFS", default: MeasurementSignal.Plan.defaultLevelDBFS, range: Parameters.level.range,
            help: "Peak level of the sweep and the tone in dBFS.", flag: "--level", valueName: "dbfs")

        public static let frequency = Parameter<Double>(
            "test tone frequency", unit: "Hz", default: MeasurementSignal.Plan.defaultToneFrequencyHz, range: ToneFrequency.rangeHz,
            help: "Test tone frequency in Hz.", flag: "--freq", valueName: "hz")

        public static let sweepStart = Parameter<Double>(
            "sweep start", unit: "Hz", default: MeasurementSignal.Plan.defaultSweepStartHz,
            help: "Lowest sweep frequency in Hz.", flag: "--sweep-start", valueName: "hz")

        /// Its default is the highest; 95 % of Nyquist when that is lower.
        public static let sweepEnd = Parameter<Double>(
            "sweep end", unit: "Hz", default: MeasurementSignal.Plan.defaultSweepEndHz,
            help: "Highest sweep frequency in Hz (default \(format(MeasurementSignal.Plan.defaultSweepEndHz)), or 95 % of Nyquist if lower).",
            flag: "--sweep-end", valueName: "hz")

        public static let sweepSeconds = Parameter<Double>(
            "sweep length", unit: "s", default: MeasurementSignal.Plan.defaultSweepSeconds,
            range: MeasurementSignal.Plan.sweepSecondsRange,
            help: "Length of the sweep (\(span(MeasurementSignal.Plan.sweepSecondsRange)) s).", flag: "--sweep-seconds", valueName: "s")

        public static let maxLatency = Parameter<Double>(
            "longest round trip", unit: "s", default: MeasurementSignal.Plan.defaultMaxLatencySeconds,
            range: MeasurementSignal.Plan.maxLatencySecondsRange,
            help: "Longest round trip to look for, in seconds (\(span(MeasurementSignal.Plan.maxLatencySecondsRange))).",
            flag: "--max-latency", valueName: "s")

        /// At least one: `--what midi` with no note would measure nothing.
        public static let midiNotes = Parameter<Int>(
            "MIDI notes", default: 32, range: (1...MeasurementSignal.Plan.midiNotesRange.upperBound).asDoubles,
            help: "With --what midi: notes to send (1…\(MeasurementSignal.Plan.midiNotesRange.upperBound)), one every "
                + "\(format(MeasurementSignal.Plan.defaultMIDINoteSpacingSeconds)) s (middle C, velocity 100, channel 1).",
            flag: "--midi-notes", valueName: "n")

        public static let channels = Parameter<Int>(
            "audio channels", default: 1, range: Parameters.channels.range,
            help: "Channels to play and record (1…\(AudioChannels.maximum)). With more than one the ports are in_1…, out_1…, and the k-th --connect-in/--connect-out name goes to the k-th port; the other measurements use channel 1.",
            flag: "--channels", valueName: "n")

        public static let connectMidi = Parameter<[String]>(
            "MIDI output connections", default: [],
            help: "With --what midi: connect our MIDI output midi_out to this port (the synth's MIDI input; repeatable).",
            flag: "--connect-midi", valueName: "port")

        /// The names `tonenode`'s `MeasureSelection` parses.
        public static let what = Parameter<String>(
            "measurements", default: "response",
            help: "Measurements to make, comma-separated: response (latency, gain, THD+N, magnitude response), harmonics (H2…H5 and THD versus frequency, phase, group delay, impulse response; from the same sweep, no extra time), "
                + "levels (THD+N and gain versus level at --freq, \(format(LevelSweepAnalyzer.quietestStepDBFS))…0 dBFS in \(format(LevelSweepAnalyzer.stepDB)) dB steps of \(format(Plan.defaultLevelStepSeconds)) s), "
                + "noise (AES17 idle noise, SNR, dynamic range from a \(format(MeasurementSignal.dynamicRangeToneDBFS)) dBFS tone, hum lines; \(format(Plan.noiseExtraSeconds())) s more), "
                + "imd (SMPTE 60 Hz + 7 kHz 4:1 and CCIF 19 + 20 kHz intermodulation; \(format(Plan.imdExtraSeconds)) s more), crosstalk (with --channels: each output driven alone, every input read), "
                + "midi (MIDI-to-audio latency and jitter of a synth: --midi-notes notes \(format(Plan.defaultMIDINoteSpacingSeconds)) s apart on midi_out, which --connect-midi connects; the onset of each answer on `in` to a fraction of a frame), or all (all but crosstalk and midi).",
            flag: "--what", valueName: "list")

        public static let loopback = Parameter<Bool>(
            "loopback", default: false, help: "Also connect our own `out` to our own `in` (measures JACK's own loop).",
            flag: "--loopback")
    }

    /// `tonenode audit`: one sweep per path, shorter than `measure`'s.
    public enum Audit {
        public static let sweepSeconds = Parameter<Double>(
            "sweep length", unit: "s", default: 1, range: MeasurementSignal.Plan.sweepSecondsRange,
            help: "Length of the sweep per path (\(span(MeasurementSignal.Plan.sweepSecondsRange)) s).",
            flag: "--sweep-seconds", valueName: "s")
    }

    /// `tonenode link`.
    public enum Link {
        /// At or below full scale, as the node's tone.
        public static let level = Parameter<Double>(
            "probe level", unit: "dBFS", default: LinkProbe.defaultLevelDBFS, range: Parameters.level.range,
            help: "Peak level of the probe in dBFS.", flag: "--level", valueName: "dbfs")

        public static let duration = Parameter<Double?>(
            "duration", unit: "s", default: nil, range: Parameters.duration.range,
            help: "Stop after this many seconds (default: until stopped).", flag: "--duration", valueName: "seconds")

        public static let maxLatencyMs = Parameter<Double?>(
            "latency limit", unit: "ms", default: nil, help: "Fail (status 2) when the latency exceeds this.",
            flag: "--max-latency-ms", valueName: "ms")

        public static let maxJitterMs = Parameter<Double?>(
            "jitter limit", unit: "ms", default: nil, help: "Fail (status 2) when the latency readings spread more than this.",
            flag: "--max-jitter-ms", valueName: "ms")

        public static let maxDropouts = Parameter<Int?>(
            "dropout limit", default: nil, help: "Fail (status 2) with more dropouts than this.",
            flag: "--max-dropouts", valueName: "n")
    }

    /// `tonenode demo`.
    public enum Demo {
        /// No quieter than −120 dBFS: the demo passes a tone only within
        /// 0.1 dB of its level, and below that the readings measure the
        /// float rounding of the loop rather than the node.
        public static let level = Parameter<Double>(
            "tone level", unit: "dBFS", default: Parameters.level.defaultValue, range: -120...0,
            help: "Tone level in dBFS.", flag: "--level", valueName: "dbfs")
    }

    /// `tonenode send` and `encode` (and `run --send-level`).
    public enum Message {
        /// No quieter than −60 dBFS: a message is meant to be received, and
        /// the modem's preamble search needs it above the noise of a real room or line.
        public static let level = Parameter<Double>(
            "message level", unit: "dBFS", default: -6, range: -60...0,
            help: "Peak level in dBFS (≤ \(format(0))).", flag: "--level", valueName: "dbfs")

        /// `encode` and `send`: the tone profiles and `cable`.
        public static let fileProfile = Parameter<MessageFileProfile>(
            "message profile", default: .tones(.ultrasonic), help: "Band and speed; cable: OFDM for files and cables.",
            flag: "--profile")

        /// The rates libsndfile's formats and the modem's profiles share.
        public static let fileRate = Parameter<Int>(
            "sample rate", unit: "Hz", default: 48_000, range: 8_000...384_000,
            help: "Sample rate in Hz (ultrasonic profiles need at least 40900).", flag: "--rate", valueName: "hz")
    }

    /// `lo…hi` as `--help` writes a range.
    static func span(_ range: ClosedRange<Double>) -> String { "\(format(range.lowerBound))…\(format(range.upperBound))" }
}

// MARK: - Every declaration

extension Parameters {
    /// Every declaration, for the tests that walk them (each door's names exist and are described).
    public static let all: [any ParameterDeclaration] = node + [
        sampleRate, connectIn, connectOut, connectMidi, loopback, duration, oscPort,
        message, sendProfile, sendLevel, receiveProfiles, runReceiveProfile,
        Measure.level, Measure.frequency, Measure.sweepStart, Measure.sweepEnd, Measure.sweepSeconds, Measure.maxLatency,
        Measure.midiNotes, Measure.channels, Measure.connectMidi, Measure.what, Measure.loopback,
        Audit.sweepSeconds,
        Link.level, Link.duration, Link.maxLatencyMs, Link.maxJitterMs, Link.maxDropouts,
        Demo.level,
        Message.level, Message.fileProfile, Message.fileRate,
    ]
}
