import Foundation
import ToneDSP

/// What the live view shows: the newest report and the node's health.
struct LiveViewState {
    var clientName = ""
    var sampleRateHz = 0
    var periodFrames = 0
    var report: ToneReport?
    var xruns = 0
    var overflows = 0
    var dspLoadPercent = 0.0
    var tuning = EqualTemperament()
}

/// The terminal view of `run`: a block of lines redrawn in place, with the
/// detected frequency, note and a cents needle, a level meter, xruns and DSP
/// load. `lines` is a pure function of the state (tested without a terminal).
enum LiveView {
    /// Width of the needle and of the meter, in characters.
    static let barWidth = 41
    /// The meter spans this many dB below full scale.
    static let meterRangeDB = 60.0

    /// The view for a terminal `columns` wide: the bars shrink to fit (down
    /// to 10 cells) and every line is cut to `columns - 1` characters, so no
    /// line wraps (a wrapped line would break the in-place redraw).
    static func lines(_ state: LiveViewState, columns: Int) -> [String] {
        let bar = max(10, min(barWidth, columns - 1 - 22))
        return lines(state, bar: bar).map { String($0.prefix(max(1, columns - 1))) }
    }

    static func lines(_ state: LiveViewState, bar: Int = barWidth) -> [String] {
        let load = String(format: "%.1f", state.dspLoadPercent)
        let header = " \(state.clientName)  \(state.sampleRateHz) Hz  \(state.periodFrames) frames/period"
            + "  DSP \(load) %  xruns \(state.xruns)" + (state.overflows > 0 ? "  overflows \(state.overflows)" : "")
        guard let report = state.report else { return [header, " waiting for audio", "", ""] }
        let r = report.reading
        let time = String(format: " %10.3f s", report.timeSeconds)
        if r.invalidInput { return [header, time + "   invalid input (NaN or Inf)", "", ""] }
        if report.unconnected { return [header, time + "   in: not connected", "", " level " + meter(dbfs: nil, width: bar)] }
        guard let frequency = r.frequencyHz, let level = r.levelDBFS, let snr = r.snrDB,
              let (note, cents) = state.tuning.nearestNote(frequencyHz: frequency) else {
            let rms = r.rmsDBFS.map { String(format: "window %.1f dBFS", $0) } ?? "silence"
            return [header, time + "   no tone (\(rms))", "", " level " + meter(dbfs: r.rmsDBFS, width: bar)]
        }
        let name = EqualTemperament.name(midiNote: note)
        let paddedName = name.padding(toLength: 4, withPad: " ", startingAt: 0)
        let main = time + String(format: "   %13.4f Hz   ", frequency) + paddedName
            + String(format: " %+6.2f cents   SNR %5.1f dB", cents, snr)
        return [header, main, " tune  " + needle(cents: cents, width: bar), " level " + meter(dbfs: level, width: bar)
                + String(format: " %7.2f dBFS", level)]
    }

    /// `♭ ·····|····· ♯` with the needle `|` at `cents` (−50…+50) and the centre marked.
    static func needle(cents: Double, width barWidth: Int = barWidth) -> String {
        let half = barWidth / 2
        let clamped = max(-50, min(50, cents.isFinite ? cents : 0))
        let position = half + Int((clamped / 50 * Double(half)).rounded())
        var cells = Array(repeating: Character("·"), count: barWidth)
        cells[half] = ":"
        cells[position] = "|"
        return "♭ " + String(cells) + " ♯"
    }

    /// `[█████░░░░░]` filled in proportion to the level over the last `meterRangeDB` dB.
    static func meter(dbfs: Double?, width barWidth: Int = barWidth) -> String {
        let fraction = dbfs.map { max(0, min(1, ($0 + meterRangeDB) / meterRangeDB)) } ?? 0
        let filled = Int((fraction * Double(barWidth)).rounded())
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "]"
    }
}
