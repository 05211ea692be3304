import Foundation
import ToneDSP
import TonePlot

/// `measure --what midi --plot`: a histogram of the MIDI-to-audio latencies, in milliseconds.
public enum MIDILatencyPlot {
    public static func svg(_ m: MIDILatencyMeasurement) -> String {
        let values = m.sortedFrames.map(m.milliseconds)
        let low = values.first ?? 0, high = values.last ?? 1
        // At least a tenth of a frame wide, so a jitter-free synth shows one bar, not a division by zero.
        let span = max(high - low, m.milliseconds(0.1) * 10)
        let bins = 40
        let lower = low - span * 0.1, upper = low + span * 1.1
        var histogram = Histogram(
            title: String(format: "MIDI → audio latency: %d of %d notes, note %d", m.notesAnswered, m.notesSent, m.noteNumber),
            xTitle: "latency (ms)", yTitle: "notes", values: values, lower: lower, upper: upper, bins: bins)
        if let median = m.medianFrames, let p99 = m.p99Frames {
            histogram.markers = [(m.milliseconds(median), String(format: "median %.3f ms", m.milliseconds(median))),
                                 (m.milliseconds(p99), String(format: "p99 %.3f ms", m.milliseconds(p99)))]
        }
        return histogram.svg()
    }
}
