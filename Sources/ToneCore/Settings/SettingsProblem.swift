import ToneDSP
import ToneModem

/// A setting that breaks one of the node's rules: which setting, and which rule.
///
/// The rules themselves live in `NodeSettings+Validation.swift`; every entry
/// point (the command line, control lines on stdin and OSC, session files,
/// `Node.init`) asks there. The text names the setting the way the person
/// wrote it: a command-line flag (`description`), a session-file key
/// (`sessionDescription`) or a control command (`commandDescription`).
public struct SettingsProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The setting at fault: its declaration, which holds every name it has
    /// (on the command line, in a session file, on a control line).
    public struct Setting: Hashable, Sendable, CustomStringConvertible {
        public let parameter: any ParameterDeclaration

        public init(_ parameter: any ParameterDeclaration) { self.parameter = parameter }

        /// Two declarations are one setting when they have the same name and flag.
        private var identity: String { "\(parameter.name)|\(parameter.flag ?? "")" }
        public static func == (a: Setting, b: Setting) -> Bool { a.identity == b.identity }
        public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
        public var description: String { parameter.commandLineName }
    }

    /// The rule that was broken, with the values that broke it.
    public enum Rule: Equatable, Sendable {
        case notPositiveHz(Double)
        case notBelowNyquist(hz: Double, nyquistHz: Double)
        case notDBFS(Double)
        case fftSize(Int)
        case hop(Int, fftSize: Int)
        case bandEmpty(lowHz: Double, highHz: Double)
        case bandAboveNyquist(highHz: Double, nyquistHz: Double)
        case bandNarrowerThanBins(lowHz: Double, highHz: Double, binHz: Double)
        case notFiniteDB(Double)
        /// Outside the declaration's range, which its `rangeRequirement` states; the value as written.
        case outOfRange(String)
        case pitchRangeEmpty(lowHz: Double, highHz: Double)
        case pitchWindowTooShort(frames: Int, sampleRateHz: Double, lowHz: Double, highHz: Double)
        case messageEmpty
        case messageTooLong(bytes: Int)
        /// A message profile that cannot run at this rate (the modem's own sentence).
        case profileDoesNotFit(String)
        case sampleRate(Double)
        /// The command registers no such port (`in`, `out`, `midi_in`).
        case noSuchPort(String)
        /// A rule of one command's options, in its own words after the setting's
        /// name (`must be from 0.25 to 60`, `crosstalk needs --channels 2 or more`).
        case unmet(String)
        /// A rule between options, as a whole sentence (`with --channels 2, give …`).
        case between(String)
    }

    public let setting: Setting
    public let rule: Rule

    public init(_ setting: Setting, _ rule: Rule) {
        self.setting = setting
        self.rule = rule
    }

    /// As the command line spells it: `--hop 8192 must be between 1 and the FFT size 4096`.
    public var description: String { text(naming: setting.flag) }

    /// As a session file spells it: `hopFrames 8192 must be between 1 and the FFT size 4096`.
    public var sessionDescription: String {
        let key = setting.sessionKey
        let text = text(naming: key)
        return text.hasPrefix(key) ? text : "\(key): \(text)"
    }

    /// As a control line reports it, after `command` (`freq 30000`).
    public func commandDescription(_ command: String) -> String {
        switch rule {
        case .notPositiveHz: "\(command) takes a positive number of Hz"
        case .notDBFS: "\(command) takes a finite number of dBFS at or below \(Parameters.level.maximumText)"
        default: "\(command): \(reason)"
        }
    }

    /// `name` and the rule, as one sentence.
    public func text(naming name: String) -> String {
        switch rule {
        case .messageEmpty, .messageTooLong: "\(name): \(reason)"
        case .profileDoesNotFit, .sampleRate, .pitchRangeEmpty, .pitchWindowTooShort, .between: reason
        default: "\(name) \(reason)"
        }
    }

    /// The rule and the values, without the setting's name.
    public var reason: String {
        switch rule {
        case .notPositiveHz(let hz):
            "must be a positive number of Hz, not \(hz)"
        case .notBelowNyquist(let hz, let nyquistHz):
            "\(format(hz)) Hz is at or above the Nyquist frequency \(format(nyquistHz)) Hz of this server"
        case .notDBFS(let dbfs):
            "must be a finite number of dBFS at or below \(Parameters.level.maximumText), not \(dbfs)"
        case .fftSize(let size):
            "\(size) must be a power of two from \(Parameters.fftSize.rangeText())"
        case .hop(let hop, let fftSize):
            "\(hop) must be between 1 and the FFT size \(fftSize)"
        case .bandEmpty:
            "must be LO:HI in Hz with 0 ≤ LO < HI"
        case .bandAboveNyquist(let highHz, let nyquistHz):
            "upper edge \(format(highHz)) Hz is above the Nyquist frequency \(format(nyquistHz)) Hz of this server"
        case .bandNarrowerThanBins(let lowHz, let highHz, let binHz):
            "\(lowHz):\(highHz) is narrower than \(format(ToneEstimatorConfiguration.minimumBandBins)) FFT bins (\(binHz) Hz each)"
        case .notFiniteDB:
            "must be a finite number of dB"
        case .outOfRange(let value):
            "\(value) must be \(setting.parameter.rangeRequirement ?? "in range")"
        case .pitchRangeEmpty(let lowHz, let highHz):
            "pitch range \(lowHz)…\(highHz) Hz is empty"
        case .pitchWindowTooShort(let frames, let rate, let lowHz, let highHz):
            "a window of \(frames) samples at \(rate) Hz cannot hold two periods of any pitch from \(lowHz) to \(highHz) Hz"
        case .messageEmpty:
            "the message is empty; nothing to send"
        case .messageTooLong(let bytes):
            "the message has \(bytes) bytes; at most \(ModemFrame.maximumMessageBytes) fit"
        case .profileDoesNotFit(let sentence), .unmet(let sentence), .between(let sentence):
            sentence
        case .noSuchPort(let port):
            "does not apply: this command has no `\(port)` port"
        case .sampleRate(let hz):
            "sample rate \(hz) Hz is outside \(Parameters.sampleRate.rangeSpan) Hz"
        }
    }
}

// MARK: - Names

extension SettingsProblem.Setting {
    /// The settings the named rules (NodeSettings+Validation) and the option groups speak of.
    public static let frequency = Self(Parameters.frequency), level = Self(Parameters.level)
    public static let fftSize = Self(Parameters.fftSize), hop = Self(Parameters.hop), band = Self(Parameters.band)
    public static let snrMin = Self(Parameters.snrMin), tones = Self(Parameters.tones), channels = Self(Parameters.channels)
    public static let a4 = Self(Parameters.a4), bendRange = Self(Parameters.bendRange), pitchRange = Self(Parameters.pitchRange)
    public static let receiveProfiles = Self(Parameters.receiveProfiles), sampleRate = Self(Parameters.sampleRate)
    /// `measure`'s sweep edges.
    public static let sweepStart = Self(Parameters.Measure.sweepStart), sweepEnd = Self(Parameters.Measure.sweepEnd)
    /// `run --send`, `send`, `encode`: the message and its level.
    public static let message = Self(Parameters.message), sendLevel = Self(Parameters.sendLevel)
    /// Connections to ports a command may not have (`send` has no `in`).
    public static let connectIn = Self(Parameters.connectIn), connectOut = Self(Parameters.connectOut)
    public static let connectMidi = Self(Parameters.connectMidi), loopback = Self(Parameters.loopback)

    /// The command-line flag that sets it (the parameter's name when no flag does: `sample rate`).
    public var flag: String { parameter.commandLineName }

    /// The key (or keys) that hold it in a session file; for what a session
    /// does not keep, the name it has elsewhere.
    public var sessionKey: String { parameter.sessionKey ?? flag }
}
