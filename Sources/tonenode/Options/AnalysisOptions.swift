import ArgumentParser
import ToneCore
import ToneDSP

/// How the input is analysed and reported.
struct AnalysisOptions: ParsableArguments {
    @Option(name: .customLong("fft-size"), parsing: .unconditional, help: ArgumentHelp(
        "Analysis window in samples (a power of two, 256…1048576).", valueName: "n"))
    var fftSize = 4096

    @Option(parsing: .unconditional, help: ArgumentHelp("Samples between reports (1…fft-size).", valueName: "n"))
    var hop = 512

    @Option(parsing: .unconditional, help: ArgumentHelp("Only look for tones between LO and HI Hz (default 20 Hz to Nyquist).",
                               valueName: "lo:hi"))
    var band: FrequencyBand?

    @Option(name: .customLong("snr-min"), parsing: .unconditional, help: ArgumentHelp(
        "No-tone gate: a tone must carry at least this SNR in dB (the tone against the rest of the window, "
            + "other reported tones excepted).", valueName: "db"))
    var snrMin = -20.0

    @Option(parsing: .unconditional, help: ArgumentHelp(
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
