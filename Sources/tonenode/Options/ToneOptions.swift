import ArgumentParser
import ToneCore
import ToneDSP

/// The tone played on `out`.
struct ToneOptions: ParsableArguments {
    @Option(Parameters.frequency, parsing: .unconditional)
    var freq: Double

    @Option(Parameters.level, parsing: .unconditional)
    var level: Double

    @Flag(Parameters.mute)
    var mute: Bool

    func apply(to settings: inout NodeSettings) {
        settings.frequencyHz = freq
        settings.levelDBFS = level
        settings.muted = mute
    }

    func validate() throws {
        try NodeSettings.validate([.frequency, .level], apply)
    }
}
