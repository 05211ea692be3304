import Testing
import ToneCore
import ToneDSP
import ToneModem

/// Each of the node's rules, found by the one check every entry point calls,
/// and named as the command line, a session file and a control line name it.
@Suite("Settings validation")
struct SettingsValidationTests {
    /// Settings with one change from the defaults.
    static func settings(_ change: (inout NodeSettings) -> Void) -> NodeSettings {
        var settings = NodeSettings()
        change(&settings)
        return settings
    }

    @Test("the defaults break no rule, with or without a rate")
    func defaults() {
        #expect(NodeSettings().problems(sampleRateHz: nil).isEmpty)
        #expect(NodeSettings().problems(sampleRateHz: 48_000).isEmpty)
        #expect(NodeSettings().problems(sampleRateHz: 44_100).isEmpty)
    }

    @Test("each rule: the setting at fault and the command line's words", arguments: [
        (settings { $0.frequencyHz = 24_000 }, Double?(48_000), SettingsProblem.Setting.frequency,
         "--freq 24000 Hz is at or above the Nyquist frequency 24000 Hz of this server"),
        (settings { $0.frequencyHz = 30_000 }, 48_000, .frequency, "--freq 30000 Hz is at or above the Nyquist frequency"),
        (settings { $0.frequencyHz = -5 }, nil, .frequency, "--freq must be a positive number of Hz, not -5.0"),
        (settings { $0.frequencyHz = .nan }, nil, .frequency, "--freq must be a positive number of Hz, not nan"),
        (settings { $0.levelDBFS = .infinity }, nil, .level, "--level must be a finite number of dBFS at or below 0, not inf"),
        (settings { $0.fftSize = 1000 }, nil, .fftSize, "--fft-size 1000 must be a power of two from 256 to 1048576"),
        (settings { $0.fftSize = 128 }, nil, .fftSize, "--fft-size 128 must be a power of two"),
        (settings { $0.fftSize = 1 << 21 }, nil, .fftSize, "--fft-size 2097152 must be a power of two"),
        (settings { $0.hopFrames = 8192 }, nil, .hop, "--hop 8192 must be between 1 and the FFT size 4096"),
        (settings { $0.hopFrames = 0 }, nil, .hop, "--hop 0 must be between 1 and the FFT size 4096"),
        (settings { $0.lowHz = 9; $0.highHz = 3 }, nil, .band, "--band must be LO:HI in Hz with 0 ≤ LO < HI"),
        (settings { $0.lowHz = -1 }, nil, .band, "--band must be LO:HI"),
        (settings { $0.highHz = .nan }, nil, .band, "--band must be LO:HI"),
        (settings { $0.highHz = 30_000 }, 48_000, .band,
         "--band upper edge 30000 Hz is above the Nyquist frequency 24000 Hz of this server"),
        (settings { $0.lowHz = 1000; $0.highHz = 1020 }, 48_000, .band, "is narrower than 3 FFT bins"),
        (settings { $0.snrMinDB = .nan }, nil, .snrMin, "--snr-min must be a finite number of dB"),
        (settings { $0.maxTones = 0 }, nil, .tones, "--tones 0 must be between 1 and 16"),
        (settings { $0.maxTones = 17 }, nil, .tones, "--tones 17 must be between 1 and 16"),
        (settings { $0.channels = 0 }, nil, .channels, "--channels 0 must be from 1 to 8"),
        (settings { $0.channels = 9 }, nil, .channels, "--channels 9 must be from 1 to 8"),
        (settings { $0.a4Hz = 1000 }, nil, .a4, "--a4 1000.0 must be a frequency in Hz from 380 to 500"),
        (settings { $0.a4Hz = .nan }, nil, .a4, "--a4 nan must be a frequency in Hz"),
        (settings { $0.bendRangeSemitones = 25 }, nil, .bendRange, "--bend-range 25.0 must be a number of semitones from 0 to 24"),
        (settings { $0.bendRangeSemitones = -1 }, nil, .bendRange, "--bend-range -1.0 must be"),
        (settings { $0.pitchLowHz = 500; $0.pitchHighHz = 100 }, nil, .pitchRange, "pitch range 500.0…100.0 Hz is empty"),
        (settings { $0.mode = .pitch; $0.fftSize = 256; $0.hopFrames = 128; $0.pitchLowHz = 200; $0.pitchHighHz = 300 }, 48_000, .fftSize,
         "cannot hold two periods"),
        (settings { $0.receivesMessages = true; $0.messageProfiles = [.ultrasonic] }, 22_050, .receiveProfiles,
         "profile ultrasonic needs energy up to 20000 Hz"),
        (settings { $0.analyzesTones = true }, 500, .frequency, "Nyquist"),
    ])
    func rule(settings: NodeSettings, sampleRateHz: Double?, setting: SettingsProblem.Setting, text: String) throws {
        let problem = try #require(settings.problems(sampleRateHz: sampleRateHz).first)
        #expect(problem.setting == setting)
        #expect(problem.description.contains(text), "\(problem.description)")
    }

    @Test("rules that need the rate wait for it")
    func rateRulesWait() {
        #expect(Self.settings { $0.frequencyHz = 30_000 }.problems(sampleRateHz: nil).isEmpty)
        #expect(Self.settings { $0.highHz = 30_000 }.problems(sampleRateHz: nil).isEmpty)
        #expect(Self.settings { $0.frequencyHz = 30_000 }.problems(sampleRateHz: 96_000).isEmpty)
    }

    @Test("a tone band that is only narrow matters in tone mode")
    func narrowBandInPitchMode() {
        let narrow = Self.settings { $0.lowHz = 1000; $0.highHz = 1020 }
        #expect(!narrow.problems(sampleRateHz: 48_000).isEmpty)
        #expect(Self.settings { $0 = narrow; $0.mode = .pitch }.problems(sampleRateHz: 48_000).isEmpty)
    }

    @Test("a session file names its keys")
    func sessionNames() throws {
        let hop = try #require(Self.settings { $0.hopFrames = 8192 }.problems(sampleRateHz: nil).first)
        #expect(hop.sessionDescription == "hopFrames 8192 must be between 1 and the FFT size 4096")
        let band = try #require(Self.settings { $0.lowHz = 9; $0.highHz = 3 }.problems(sampleRateHz: nil).first)
        #expect(band.sessionDescription == "lowHz:highHz must be LO:HI in Hz with 0 ≤ LO < HI")
        let pitch = try #require(Self.settings { $0.pitchLowHz = 0 }.problems(sampleRateHz: nil).first)
        #expect(pitch.sessionDescription.hasPrefix("pitchLowHz:pitchHighHz: pitch range"))
    }

    @Test("frequencies: positive and below Nyquist, for every entry point")
    func frequencyRule() {
        #expect(NodeSettings.frequencyProblem(440, sampleRateHz: 48_000) == nil)
        #expect(NodeSettings.frequencyProblem(23_999, sampleRateHz: 48_000) == nil)
        #expect(NodeSettings.frequencyProblem(24_000, sampleRateHz: 48_000)?.rule == .notBelowNyquist(hz: 24_000, nyquistHz: 24_000))
        #expect(NodeSettings.frequencyProblem(0, sampleRateHz: nil)?.rule == .notPositiveHz(0))
        #expect(NodeSettings.frequencyProblem(.infinity, sampleRateHz: nil) != nil)
        let sweep = NodeSettings.frequencyProblem(-1, sampleRateHz: nil, setting: .sweepStart)
        #expect(sweep?.description == "--sweep-start must be a positive number of Hz, not -1.0")
    }

    @Test("a message: not empty, at most what the frames carry")
    func messageRule() {
        #expect(NodeSettings.messageProblem(byteCount: 1) == nil)
        #expect(NodeSettings.messageProblem(byteCount: ModemFrame.maximumMessageBytes) == nil)
        #expect(NodeSettings.messageProblem(byteCount: 0)?.description == "--send: the message is empty; nothing to send")
        #expect(NodeSettings.messageProblem(byteCount: ModemFrame.maximumMessageBytes + 1)?.description
                == "--send: the message has \(ModemFrame.maximumMessageBytes + 1) bytes; at most \(ModemFrame.maximumMessageBytes) fit")
    }

    @Test("control lines use the same rules, in their own words")
    func controlLines() throws {
        let settings = NodeSettings()
        #expect(throws: ControlCommand.Problem("freq 30000: 30000 Hz is at or above the Nyquist frequency 24000 Hz of this server")) {
            try ControlCommand.frequency(hz: 30_000).applied(to: settings, sampleRateHz: 48_000)
        }
        #expect(throws: ControlCommand.Problem("sweep 100 30000 1: 30000 Hz is at or above the Nyquist frequency 24000 Hz of this server")) {
            try ControlCommand.sweep(startHz: 100, endHz: 30_000, seconds: 1).applied(to: settings, sampleRateHz: 48_000)
        }
        #expect(throws: ControlCommand.Problem("'freq -1': freq takes a positive number of Hz")) {
            try ControlCommand.parse("freq -1")
        }
        #expect(throws: ControlCommand.Problem("'level 3': level takes a finite number of dBFS at or below 0")) {
            try ControlCommand.parse("level 3")
        }
        #expect(try ControlCommand.frequency(hz: 880).applied(to: settings, sampleRateHz: 48_000).frequencyHz == 880)
    }

    @Test("the analyzers refuse a hop the window cannot take (a throw, never a trap)")
    func analyzerThrows() throws {
        let estimator = try ToneEstimator(ToneEstimatorConfiguration(sampleRateHz: 48_000, fftSize: 1024), planning: .estimate)
        #expect(throws: ToneEstimator.SetupError.self) { try ToneAnalyzer(estimator: estimator, hopFrames: 2048) }
        #expect(throws: ToneEstimator.SetupError.self) { try ToneAnalyzer(estimator: estimator, hopFrames: 0) }
        #expect(throws: ToneEstimator.SetupError.self) { try HopWindow(size: 1000, hopFrames: 10) }
        var settings = NodeSettings()
        settings.hopFrames = 8192
        #expect(throws: (any Error).self) { try settings.makeAnalyzer(sampleRateHz: 48_000, planning: .estimate) }
    }
}
