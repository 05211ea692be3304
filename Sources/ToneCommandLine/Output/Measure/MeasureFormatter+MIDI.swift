import Foundation
import ToneCore
import ToneDSP

/// `measure --what midi`: MIDI-to-audio latency and jitter.
extension MeasureFormatter {
    public static func human(_ m: MIDILatencyMeasurement) -> String {
        let header = "MIDI        \(m.notesAnswered) of \(m.notesSent) notes answered (note \(m.noteNumber), velocity \(m.velocity))"
        guard let low = m.minimumFrames, let median = m.medianFrames, let p99 = m.p99Frames, let high = m.maximumFrames,
              let deviation = m.standardDeviationFrames else {
            return header + "; no onset came back on `in`: is the synth's audio output connected?"
        }
        return [
            header,
            String(format: "MIDI→audio  min %.3f  median %.3f  p99 %.3f  max %.3f frames", low, median, p99, high),
            String(format: "            min %.4f  median %.4f  p99 %.4f  max %.4f ms",
                   m.milliseconds(low), m.milliseconds(median), m.milliseconds(p99), m.milliseconds(high)),
            String(format: "jitter      %.3f frames (%.4f ms) standard deviation, %.3f frames (%.4f ms) max − min",
                   deviation, m.milliseconds(deviation), high - low, m.milliseconds(high - low)),
        ].joined(separator: "\n")
    }

    public static func json(_ m: MIDILatencyMeasurement) -> JSONLine {
        var object = JSONLine()
        object.add("note", m.noteNumber)
        object.add("velocity", m.velocity)
        object.add("notes_sent", m.notesSent)
        object.add("notes_answered", m.notesAnswered)
        object.add("min_frames", m.minimumFrames)
        object.add("median_frames", m.medianFrames)
        object.add("p99_frames", m.p99Frames)
        object.add("max_frames", m.maximumFrames)
        object.add("std_frames", m.standardDeviationFrames)
        object.add("min_ms", m.minimumFrames.map(m.milliseconds))
        object.add("median_ms", m.medianFrames.map(m.milliseconds))
        object.add("p99_ms", m.p99Frames.map(m.milliseconds))
        object.add("max_ms", m.maximumFrames.map(m.milliseconds))
        // Per note in the order sent; null for a note without an answer.
        object.add("latencies_frames", m.latenciesFrames.map { $0.map { rounded($0, 4) } ?? .nan })
        return object
    }
}
