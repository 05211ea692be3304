import ArgumentParser
import ToneDSP
import ToneCore
import ToneEngine
import ToneJack

/// Which JACK server and client name, and what to connect.
struct JackOptions: ParsableArguments {
    @Option(name: [.customShort("n"), .long], help: "JACK client name (JACK may append -01 if it is taken).")
    var name = "tonenode"

    @Option(name: [.customShort("s"), .long],
            help: "JACK server name (default: $JACK_DEFAULT_SERVER, else the default server).")
    var server: String?

    @Option(name: .customLong("connect-in"), help: ArgumentHelp(
        "Connect this port to our `in` after activation (repeatable).", valueName: "port"))
    var connectIn: [String] = []

    @Option(name: .customLong("connect-out"), help: ArgumentHelp(
        "Connect our `out` to this port after activation (repeatable).", valueName: "port"))
    var connectOut: [String] = []

    func apply(to settings: inout NodeSettings) {
        settings.clientName = name
        settings.serverName = server
        settings.connectIn = connectIn
        settings.connectOut = connectOut
    }

    func validate() throws {
        guard !name.isEmpty, name.utf8.count <= 63 else {
            throw ValidationError("--name must be 1 to 63 bytes long")
        }
    }
}

/// The tone played on `out`.
struct ToneOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Tone frequency in Hz, below the server's Nyquist frequency.", valueName: "hz"))
    var freq = 1000.0

    @Option(parsing: .unconditional, help: ArgumentHelp("Tone level in dBFS (peak; 0 dBFS is a full-scale sine).", valueName: "dbfs"))
    var level = -18.0

    @Flag(help: "Play silence on `out`.")
    var mute = false

    func apply(to settings: inout NodeSettings) {
        settings.frequencyHz = freq
        settings.levelDBFS = level
        settings.muted = mute
    }

    func validate() throws {
        try NodeSettings.validate([.frequency, .level], apply)
    }
}

/// A frequency band written `LO:HI` in Hz.
struct FrequencyBand: ExpressibleByArgument {
    var lowHz: Double
    var highHz: Double

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]) else { return nil }
        lowHz = low
        highHz = high
    }

    static var defaultValueDescription: String { "20:Nyquist" }
}

/// How the input is analysed and reported.
struct AnalysisOptions: ParsableArguments {
    @Option(name: .customLong("fft-size"), help: ArgumentHelp(
        "Analysis window in samples (a power of two, 256…1048576).", valueName: "n"))
    var fftSize = 4096

    @Option(help: ArgumentHelp("Samples between reports (1…fft-size).", valueName: "n"))
    var hop = 512

    @Option(parsing: .unconditional, help: ArgumentHelp("Only look for tones between LO and HI Hz (default 20 Hz to Nyquist).",
                               valueName: "lo:hi"))
    var band: FrequencyBand?

    @Option(name: .customLong("snr-min"), parsing: .unconditional, help: ArgumentHelp(
        "No-tone gate: a tone must carry at least this SNR in dB (the tone against the rest of the window, "
            + "other reported tones excepted).", valueName: "db"))
    var snrMin = -20.0

    @Option(help: ArgumentHelp(
        "Report up to K tones per window, strongest first, each with its own frequency, level and SNR "
            + "(JSON: a `tones` array; each tone passes the same no-tone gates).", valueName: "k"))
    var tones = 1

    @Flag(help: "One JSON object per report on stdout.")
    var json = false

    func apply(to settings: inout NodeSettings) {
        settings.fftSize = fftSize
        settings.hopFrames = hop
        settings.lowHz = band?.lowHz ?? 20
        settings.highHz = band?.highHz
        settings.snrMinDB = snrMin
        settings.maxTones = tones
    }

    /// Whether reports list every tone (`--tones` above 1).
    var listsTones: Bool { tones > 1 }

    func validate() throws {
        try NodeSettings.validate([.fftSize, .hop, .band, .snrMin, .tones], apply)
    }
}
