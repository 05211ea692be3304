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
    /// The setting at fault, with its names on the command line and in a session file.
    public enum Setting: String, Sendable, CaseIterable {
        case frequency, level, fftSize, hop, band, snrMin, tones, channels, a4, bendRange, pitchRange
        case receiveProfiles, sampleRate
        /// `measure`'s sweep edges.
        case sweepStart, sweepEnd
        /// `run --send`, `send`, `encode`: the message and its level.
        case message, sendLevel
        /// Connections to ports a command may not have (`send` has no `in`).
        case connectIn, connectOut, connectMidi, loopback
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
        case tones(Int)
        case channels(Int)
        case a4(Double)
        case bendRange(Double)
        case pitchRangeEmpty(lowHz: Double, highHz: Double)
        case pitchWindowTooShort(frames: Int, sampleRateHz: Double, lowHz: Double, highHz: Double)
        case messageEmpty
        case messageTooLong(bytes: Int)
        /// A message profile that cannot run at this rate (the modem's own sentence).
        case profileDoesNotFit(String)
        case sampleRate(Double)
        /// The command registers no such port (`in`, `out`, `midi_in`).
        case noSuchPort(String)
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
        case .profileDoesNotFit, .sampleRate, .pitchRangeEmpty, .pitchWindowTooShort: reason
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
        case .tones(let count):
            "\(count) must be between \(Parameters.tones.rangeText("and"))"
        case .channels(let count):
            "\(count) must be from \(Parameters.channels.rangeText())"
        case .a4(let hz):
            "\(hz) must be a frequency in Hz from \(Parameters.a4.rangeText())"
        case .bendRange(let semitones):
            "\(semitones) must be a number of semitones from \(Parameters.bendRange.rangeText())"
        case .pitchRangeEmpty(let lowHz, let highHz):
            "pitch range \(lowHz)…\(highHz) Hz is empty"
        case .pitchWindowTooShort(let frames, let rate, let lowHz, let highHz):
            "a window of \(frames) samples at \(rate) Hz cannot hold two periods of any pitch from \(lowHz) to \(highHz) Hz"
        case .messageEmpty:
            "the message is empty; nothing to send"
        case .messageTooLong(let bytes):
            "the message has \(bytes) bytes; at most \(ModemFrame.maximumMessageBytes) fit"
        case .profileDoesNotFit(let sentence):
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
    /// The parameter's declaration, which holds every name it has.
    public var parameter: any ParameterDeclaration {
        switch self {
        case .frequency: Parameters.frequency
        case .level: Parameters.level
        case .fftSize: Parameters.fftSize
        case .hop: Parameters.hop
        case .band: Parameters.band
        case .pitchRange: Parameters.pitchRange
        case .snrMin: Parameters.snrMin
        case .tones: Parameters.tones
        case .channels: Parameters.channels
        case .a4: Parameters.a4
        case .bendRange: Parameters.bendRange
        case .receiveProfiles: Parameters.receiveProfiles
        case .sampleRate: Parameters.sampleRate
        case .sweepStart: Parameters.Measure.sweepStart
        case .sweepEnd: Parameters.Measure.sweepEnd
        case .message: Parameters.message
        case .sendLevel: Parameters.sendLevel
        case .connectIn: Parameters.connectIn
        case .connectOut: Parameters.connectOut
        case .connectMidi: Parameters.connectMidi
        case .loopback: Parameters.loopback
        }
    }

    /// The command-line flag that sets it (the parameter's name when no flag does: `sample rate`).
    public var flag: String { parameter.commandLineName }

    /// The key (or keys) that hold it in a session file; for what a session
    /// does not keep, the name it has elsewhere.
    public var sessionKey: String { parameter.sessionKey ?? flag }
}
