import ArgumentParser
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

extension AnalysisMode: ExpressibleByArgument {}

/// `--mode tone|pitch`: what the analysis reports.
struct ModeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        tone: the most prominent single tone (frequency, level, SNR). \
        pitch: the fundamental of a musical sound, also when it is missing, with note and cents \
        relative to --a4; --band LO:HI then bounds the fundamental (default 30:2000).
        """, valueName: "mode"))
    var mode: AnalysisMode = .tone

    func apply(to settings: inout NodeSettings, band: FrequencyBand?, tuning: TuningOptions) {
        settings.mode = mode
        settings.a4Hz = tuning.a4
        if mode == .pitch, let band {
            settings.pitchLowHz = max(band.lowHz, 1)
            settings.pitchHighHz = band.highHz
        }
    }
}
