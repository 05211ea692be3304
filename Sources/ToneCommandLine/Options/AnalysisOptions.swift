import ArgumentParser
import ToneCore
import ToneDSP

/// How the input is analysed and reported.
public struct AnalysisOptions: ParsableArguments {
    public init() {}

    @Option(Parameters.fftSize, parsing: .unconditional)
    public var fftSize: Int

    @Option(Parameters.hop, parsing: .unconditional)
    public var hop: Int

    @Option(name: Parameters.band.optionName, parsing: .unconditional, help: Parameters.band.argumentHelp)
    public var band: FrequencyBand?

    @Option(Parameters.snrMin, parsing: .unconditional)
    public var snrMin: Double

    @Option(Parameters.tones, parsing: .unconditional)
    public var tones: Int

    @Option(Parameters.steady, parsing: .unconditional)
    public var steady: Double

    @Flag(help: "One JSON object per report on stdout.")
    public var json = false

    public func apply(to settings: inout NodeSettings) {
        settings.fftSize = fftSize
        settings.hopFrames = hop
        settings.lowHz = band?.lowHz ?? Parameters.band.defaultValue
        settings.highHz = band?.highHz
        settings.snrMinDB = snrMin
        settings.maxTones = tones
        settings.steadySpanSeconds = steady
    }

    /// Whether reports list every tone (`--tones` above 1).
    public var listsTones: Bool { tones > 1 }

    public func validate() throws {
        try NodeSettings.validate([.fftSize, .hop, .band, .snrMin, .tones, SettingsProblem.Setting(Parameters.steady)], apply)
    }
}
