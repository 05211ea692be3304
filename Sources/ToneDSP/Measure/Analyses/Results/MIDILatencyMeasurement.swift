/// MIDI-to-audio latency and jitter of a synth or sampler
/// (`measure --what midi`): per note, the frames from the note-on leaving
/// our MIDI output to the onset of the audio that came back on `in`.
public struct MIDILatencyMeasurement: Sendable {
    /// One per note sent, in order; nil where no onset stood out of the recording.
    public var latenciesFrames: [Double?]
    public var sampleRateHz: Double
    public var noteNumber: Int
    public var velocity: Int

    public init(latenciesFrames: [Double?], sampleRateHz: Double, noteNumber: Int, velocity: Int) {
        self.latenciesFrames = latenciesFrames
        self.sampleRateHz = sampleRateHz
        self.noteNumber = noteNumber
        self.velocity = velocity
    }

    /// The latencies found, smallest first.
    public var sortedFrames: [Double] { latenciesFrames.compactMap { $0 }.sorted() }
    public var notesSent: Int { latenciesFrames.count }
    public var notesAnswered: Int { latenciesFrames.count { $0 != nil } }

    public var minimumFrames: Double? { sortedFrames.first }
    public var maximumFrames: Double? { sortedFrames.last }
    /// The middle latency (the mean of the two middle ones for an even count).
    public var medianFrames: Double? {
        let sorted = sortedFrames
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    /// The 99th percentile, nearest rank (the largest of up to 100 notes).
    public var p99Frames: Double? {
        let sorted = sortedFrames
        guard !sorted.isEmpty else { return nil }
        let rank = Int((0.99 * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }
    /// Jitter: the standard deviation of the latencies.
    public var standardDeviationFrames: Double? {
        let values = sortedFrames
        guard values.count > 1 else { return values.isEmpty ? nil : 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }

    /// Frames as milliseconds at the measurement's rate.
    public func milliseconds(_ frames: Double) -> Double { frames / sampleRateHz * 1000 }
}
