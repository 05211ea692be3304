import ArgumentParser
import ToneCore
import ToneDSP

/// How the input is analysed and reported.
struct AnalysisOptions: ParsableArguments {
    @Option(Parameters.fftSize, parsing: .unconditional)
    var fftSize: Int

    @Option(Parameters.hop, parsing: .unconditional)
    var hop: Int

    @Option(name: Parameters.band.optionName, parsing: .unconditional, help: Parameters.band.argumentHelp)
    var band: FrequencyBand?

    @Option(Parameters.snrMin, parsing: .unconditional)
    var snrMin: Double

    @Option(Parameters.tones, parsing: .unconditional)
    var tones: Int

    @Flag(help: "One JSON object per report on stdout.")
    var json = false

    func apply(to settings: inout NodeSettings) {
        settings.fftSize = fftSize
        settings.hopFrames = hop
        settings.lowHz = band?.lowHz ?? Parameters.band.defaultValue
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
