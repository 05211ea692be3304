#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Twelve-tone equal temperament around a reference A4: MIDI note numbers,
/// note names and cents. Shared by the pitch detector (naming what it hears)
/// and by MIDI control (playing a note).
public struct EqualTemperament: Sendable, Equatable {
    /// Frequency of A4 (MIDI note 69), in Hz.
    public var a4Hz: Double

    /// The range `--a4` accepts: generous enough for baroque (415 Hz) and
    /// "scientific" (430.5…432 Hz) tunings, narrow enough to catch typos.
    public static let a4RangeHz: ClosedRange<Double> = 380...500

    /// Concert pitch: the A4 every default tunes to (`--a4`, the node, the generator).
    public static let standardA4Hz = 440.0

    public init(a4Hz: Double = standardA4Hz) { self.a4Hz = a4Hz }

    /// Frequency of a (possibly fractional) MIDI note number.
    public func frequencyHz(midiNote: Double) -> Double {
        a4Hz * pow(2, (midiNote - 69) / 12)
    }

    /// The (fractional) MIDI note number of a frequency; `nil` unless `frequencyHz` is finite and positive.
    public func midiNote(frequencyHz: Double) -> Double? {
        guard frequencyHz.isFinite, frequencyHz > 0 else { return nil }
        return 69 + 12 * log2(frequencyHz / a4Hz)
    }

    /// The nearest note and how far `frequencyHz` is from it, in cents (−50…+50).
    public func nearestNote(frequencyHz: Double) -> (midiNote: Int, cents: Double)? {
        guard let note = midiNote(frequencyHz: frequencyHz), abs(note) < 1e6 else { return nil }
        let nearest = note.rounded()
        return (Int(nearest), (note - nearest) * 100)
    }

    /// Scientific pitch notation with sharps: 40 → "E2", 69 → "A4", 61 → "C#4".
    public static func name(midiNote: Int) -> String {
        let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
        let pitchClass = ((midiNote % 12) + 12) % 12
        let octave = (midiNote - pitchClass) / 12 - 1
        return names[pitchClass] + String(octave)
    }
}
