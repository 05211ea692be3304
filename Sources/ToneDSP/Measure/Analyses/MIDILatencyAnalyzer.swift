/// Turns the MIDI notes of a `MeasurementSignal` and the recording into a
/// `MIDILatencyMeasurement`: where, after each note-on, the audio it
/// caused begins, to a fraction of a frame.
///
/// Onset of one note: the peak-hold envelope `e[n] = max |x[m]|` (m from the
/// note-on to n) is monotone, so it crosses 20 % and 50 % of the way from
/// the baseline `b` (the largest |x| in the eighth of a spacing before the
/// note-on: the previous note's tail, noise) to the note's peak once each;
/// both crossings are placed between samples by linear interpolation, and
/// the straight line through them is followed back to `b`. That point is
/// the onset: exact for an attack that rises linearly (a ramp, the first
/// part of most envelopes) out of silence, and independent of the note's
/// level. A note whose peak does not stand 6 dB above the baseline counts
/// as unanswered.
///
/// Worker / main thread; never the audio thread.
public enum MIDILatencyAnalyzer {
    /// The two envelope levels the onset line is drawn through, as fractions of the peak.
    static let lowFraction = 0.2, highFraction = 0.5
    /// How far the peak must stand above what came before the note-on (6 dB).
    static let baselineRatio = 0.5
    /// Quietest peak that counts as an answer (−120 dBFS).
    static let minimumPeak = 1e-6

    public static func analyze(_ signal: MeasurementSignal, recording: UnsafeBufferPointer<Float>)
        throws(ChainAnalyzer.Failure) -> MIDILatencyMeasurement {
        let spacing = signal.midiSpacingFrames
        // Look for each answer until shortly before the next note-on.
        let searchFrames = spacing - spacing / 8
        let onsets = signal.midiNoteOnFrames
        guard let last = onsets.last, last + searchFrames <= recording.count else {
            throw .recordingTooShort(recording.count)
        }
        let latencies = onsets.map { noteOn -> Double? in
            let before = max(0, noteOn - spacing / 8)
            return onsetFrame(recording, from: noteOn, count: searchFrames, baselineFrom: before).map { $0 - Double(noteOn) }
        }
        return MIDILatencyMeasurement(latenciesFrames: latencies, sampleRateHz: signal.plan.sampleRateHz,
                                      noteNumber: Int(signal.plan.midiNoteNumber), velocity: Int(signal.plan.midiVelocity))
    }

    /// The onset (a fractional frame of `x`) of the answer that starts in
    /// `start ..< start + count`, or nil when none stands out of
    /// `baselineFrom ..< start`.
    public static func onsetFrame(_ x: UnsafeBufferPointer<Float>, from start: Int, count: Int,
                                  baselineFrom: Int) -> Double? {
        guard start >= 0, count > 1, start + count <= x.count, baselineFrom <= start else { return nil }
        var baseline = 0.0
        for n in max(0, baselineFrom)..<start { baseline = max(baseline, Double(abs(x[n]))) }
        var peak = 0.0
        for n in start..<(start + count) { peak = max(peak, Double(abs(x[n]))) }
        guard peak >= minimumPeak, baseline <= baselineRatio * peak else { return nil }
        let rise = peak - baseline
        guard let low = crossing(x, from: start, count: count, level: baseline + lowFraction * rise),
              let high = crossing(x, from: start, count: count, level: baseline + highFraction * rise) else { return nil }
        guard high > low else { return low }
        // The line through (low, b + 0.2·rise) and (high, b + 0.5·rise), back to b.
        return low - (high - low) * lowFraction / (highFraction - lowFraction)
    }

    /// Where the peak-hold envelope from `start` first reaches `level`,
    /// interpolated between the sample before and the sample that reaches it.
    static func crossing(_ x: UnsafeBufferPointer<Float>, from start: Int, count: Int, level: Double) -> Double? {
        var held = 0.0
        for n in start..<(start + count) {
            let value = Double(abs(x[n]))
            if value >= level {
                // `held` is the envelope at n − 1 (below `level`); the envelope at n is `value`.
                guard n > start else { return Double(n) }
                return Double(n - 1) + (level - held) / (value - held)
            }
            held = max(held, value)
        }
        return nil
    }
}
