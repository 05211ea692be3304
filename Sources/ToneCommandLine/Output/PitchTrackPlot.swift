import Foundation
import ToneDSP
import TonePlot

/// `analyze --mode pitch --plot`: the pitch of each hop over time, below the file's spectrum and spectrogram.
public enum PitchTrackPlot {
    /// One hop's pitch, at the centre of its window; nil frequency where the detector heard no pitch.
    public struct Point {
        var timeSeconds: Double
        var frequencyHz: Double?
        var noteName: String?
    }

    /// The hop's reading placed at its window's centre (a report's time is its window's end).
    public static func point(_ report: ToneReport, windowSeconds: Double) -> Point {
        Point(timeSeconds: report.timeSeconds - windowSeconds / 2, frequencyHz: report.reading.frequencyHz,
              noteName: report.pitch?.noteName)
    }

    /// Draws the track into `box` on `timeAxis` (the spectrogram's, so the two line up): a log-frequency axis around the pitches heard (a semitone of room
    /// either side), a break in the line where there was no pitch, the median pitch in the title.
    public static func draw(_ track: [Point], timeAxis: Axis, name: String, a4Hz: Double, into writer: inout SVGWriter,
                     box: SVGWriter.Box) {
        let heard = track.compactMap(\.frequencyHz).filter { $0 > 0 && $0.isFinite }.sorted()
        let low = (heard.first ?? 100) / pow(2, 1.0 / 12), high = (heard.last ?? 1000) * pow(2, 1.0 / 12)
        let median = heard.isEmpty ? nil : heard[heard.count / 2]
        let medianNote = median.flatMap { m in track.first { $0.frequencyHz == m }?.noteName }
        let summary = median.map { String(format: "median %.1f Hz%@", $0, medianNote.map { " (\($0))" } ?? "") }
            ?? "no pitch heard"
        let voiced = track.filter { $0.frequencyHz != nil }.count
        var plot = LinePlot(
            title: "Pitch of \(name): \(summary), \(voiced) of \(track.count) hops voiced",
            xAxis: timeAxis,
            yAxis: .logarithmic(title: "pitch (note, Hz)", covering: min(low, high / 2), max(high, low * 2)),
            series: [.init(name: "pitch", points: track.map { ($0.timeSeconds, $0.frequencyHz ?? .nan) }, color: "#c0392b")])
        plot.yAxis.fixedTicks = noteTicks(from: plot.yAxis.lower, to: plot.yAxis.upper, a4Hz: a4Hz)
        plot.draw(into: &writer, box: box)
    }

    /// A gridline on every note; labelled ("A3 220") on every natural note over up to two octaves,
    /// on every C and A beyond.
    public static func noteTicks(from lowHz: Double, to highHz: Double, a4Hz: Double) -> [Axis.Tick] {
        let temperament = EqualTemperament(a4Hz: a4Hz)
        guard let low = temperament.midiNote(frequencyHz: lowHz), let high = temperament.midiNote(frequencyHz: highHz),
              high > low else { return [] }
        let notes = Int(low.rounded(.up))...Int(high.rounded(.down))
        let wide = notes.count > 25
        return notes.map { note in
            let name = EqualTemperament.name(midiNote: note)
            let hz = temperament.frequencyHz(midiNote: Double(note))
            let labelled = wide ? (name.hasPrefix("C") || name.hasPrefix("A")) && !name.contains("#") : !name.contains("#")
            return Axis.Tick(value: hz, label: labelled ? name + " " + String(format: hz < 100 ? "%.1f" : "%.0f", hz) : "",
                             major: labelled)
        }
    }
}
