/// The one rule for a tone's frequency, wherever a tone is asked for (`--freq`,
/// control lines, `measure --freq` and its plan): positive and finite before
/// the rate is known, and below the Nyquist frequency of the rate it plays at.
public enum ToneFrequency {
    /// Every frequency a tone may have before the rate is known (finite ones only).
    public static let rangeHz: ClosedRange<Double> = Double.leastNonzeroMagnitude...Double.infinity

    /// Whether `hz` is below the Nyquist frequency of `sampleRateHz`.
    public static func isBelowNyquist(_ hz: Double, sampleRateHz: Double) -> Bool { hz < sampleRateHz / 2 }

    /// Whether a tone at `hz` can play at `sampleRateHz`: in range and below Nyquist.
    public static func plays(_ hz: Double, sampleRateHz: Double) -> Bool {
        hz.isFinite && rangeHz.contains(hz) && isBelowNyquist(hz, sampleRateHz: sampleRateHz)
    }
}
