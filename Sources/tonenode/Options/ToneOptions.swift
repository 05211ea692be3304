import ArgumentParser
import ToneCore
import ToneDSP

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
