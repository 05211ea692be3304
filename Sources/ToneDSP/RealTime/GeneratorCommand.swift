/// A change for the tone generator, prepared off the audio thread (where
/// `pow` and friends may be called) so that applying it is a few stores.
///
/// Commands travel from the control side (stdin, OSC) to the audio thread
/// through a preallocated SPSC ring, so they are plain values.
public enum GeneratorCommand: BitwiseCopyable, Sendable, Equatable {
    /// Steady tone at this phase increment (glides there; ends a MIDI note).
    case tone(increment: UInt64)
    /// Peak amplitude of `--level` (before mute and velocity).
    case level(amplitude: Double)
    case mute(Bool)
    /// How many frames a frequency or level change ramps over.
    case ramp(frames: Int)
    /// A one-shot beep or sweep; it takes over `out`, crossfading with the tone.
    case shot(ToneShot)

    /// The steady tone at `frequencyHz`.
    public static func tone(frequencyHz: Double, sampleRateHz: Double) -> GeneratorCommand {
        .tone(increment: Oscillator.increment(frequencyHz: frequencyHz, sampleRateHz: sampleRateHz))
    }

    /// Changes that ramp over `seconds` (at least one frame).
    public static func ramp(seconds: Double, sampleRateHz: Double) -> GeneratorCommand {
        .ramp(frames: max(1, Int(seconds * sampleRateHz)))
    }
}
