/// The musical reading of a fundamental: the nearest equal-tempered note and
/// the distance from it. Present on every report in pitch mode; its fields
/// are nil when there is no pitch.
public struct PitchReading: Sendable, Equatable {
    /// Scientific pitch notation with sharps ("E2", "C#4").
    public var noteName: String?
    /// MIDI note number of `noteName`.
    public var midiNote: Int?
    /// Cents from that note (−50…+50), relative to the temperament's A4.
    public var cents: Double?

    public init(noteName: String? = nil, midiNote: Int? = nil, cents: Double? = nil) {
        self.noteName = noteName
        self.midiNote = midiNote
        self.cents = cents
    }

    /// Names `frequencyHz` in `temperament`; all fields nil when it is nil or not a positive number.
    public init(frequencyHz: Double?, temperament: EqualTemperament) {
        guard let frequencyHz, let nearest = temperament.nearestNote(frequencyHz: frequencyHz) else {
            self.init()
            return
        }
        self.init(noteName: EqualTemperament.name(midiNote: nearest.midiNote), midiNote: nearest.midiNote,
                  cents: nearest.cents)
    }
}
