import ArgumentParser
import ToneCore
import ToneDSP

extension AnalysisMode: ExpressibleByArgument {}

/// `--mode tone|pitch`: what the analysis reports.
public struct ModeOptions: ParsableArguments {
    public init() {}

    @Option(Parameters.mode)
    public var mode: AnalysisMode

    public func apply(to settings: inout NodeSettings, band: FrequencyBand?, tuning: TuningOptions) {
        settings.mode = mode
        settings.a4Hz = tuning.a4
        if mode == .pitch, let band {
            settings.pitchLowHz = max(band.lowHz, 1)
            settings.pitchHighHz = band.highHz
        }
    }
}
