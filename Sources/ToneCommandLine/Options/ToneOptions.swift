import ArgumentParser
import ToneCore
import ToneDSP

/// The tone played on `out`.
public struct ToneOptions: ParsableArguments {
    public init() {}

    @Option(Parameters.frequency, parsing: .unconditional)
    public var freq: Double

    @Option(Parameters.level, parsing: .unconditional)
    public var level: Double

    @Flag(Parameters.mute)
    public var mute: Bool

    @Option(Parameters.glide, parsing: .unconditional)
    public var glide: Double

    public func apply(to settings: inout NodeSettings) {
        settings.frequencyHz = freq
        settings.levelDBFS = level
        settings.muted = mute
        settings.glideSeconds = glide
    }

    public func validate() throws {
        try NodeSettings.validate([.frequency, .level, SettingsProblem.Setting(Parameters.glide)], apply)
    }
}
