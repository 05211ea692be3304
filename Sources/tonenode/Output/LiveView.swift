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

    static func lines(_ state: LiveViewState) -> [String] {
        let load = String(format: "%.1f", state.dspLoadPercent)
        let header = " \(state.clientName)  \(state.sampleRateHz) Hz  \(state.periodFrames) frames/period"
            + "  DSP \(load) %  xruns \(state.xruns)" + (state.overflows > 0 ? "  overflows \(state.overflows)" : "")
        guard let report = state.report else { return [header, " waiting for audio", "", ""] }
        let r = report.reading
        let time = String(format: " %10.3f s", report.timeSeconds)
        if r.invalidInput { return [header, time + "   invalid input (NaN or Inf)", "", ""] }
        guard let frequency = r.frequencyHz, let level = r.levelDBFS, let snr = r.snrDB,
              let (note, cents) = state.tuning.nearestNote(frequencyHz: frequency) else {
            let rms = r.rmsDBFS.map { String(format: "window %.1f dBFS", $0) } ?? "silence"
            return [header, time + "   no tone (\(rms))", "", " level " + meter(dbfs: r.rmsDBFS)]
        }
        let name = EqualTemperament.name(midiNote: note)
        let paddedName = name.padding(toLength: 4, withPad: " ", startingAt: 0)
        let main = time + String(format: "   %13.4f Hz   ", frequency) + paddedName
            + String(format: " %+6.2f cents   SNR %5.1f dB", cents, snr)
        return [header, main, " tune  " + needle(cents: cents), " level " + meter(dbfs: level)
                + String(format: " %7.2f dBFS", level)]
    }

    /// `♭ ·····|····· ♯` with the needle `|` at `cents` (−50…+50) and the centre marked.
    static func needle(cents: Double) -> String {
        let half = barWidth / 2
        let clamped = max(-50, min(50, cents.isFinite ? cents : 0))
        let position = half + Int((clamped / 50 * Double(half)).rounded())
        var cells = Array(repeating: Character("·"), count: barWidth)
        cells[half] = ":"
        cells[position] = "|"
        return "♭ " + String(cells) + " ♯"
    }

    /// `[█████░░░░░]` filled in proportion to the level over the last `meterRangeDB` dB.
    static func meter(dbfs: Double?) -> String {
        let fraction = dbfs.map { max(0, min(1, ($0 + meterRangeDB) / meterRangeDB)) } ?? 0
        let filled = Int((fraction * Double(barWidth)).rounded())
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "]"
    }
}

/// Draws `LiveView` on a terminal in place, at most `maxRedrawsPerSecond`.
/// Main thread only.
final class LiveViewRenderer {
    private(set) var state = LiveViewState()
    /// Read at each redraw (the running node's client).
    var dspLoadPercent: () -> Double? = { nil }
    private var drawnLines = 0
    private var lastDraw = Date.distantPast
    private let minimumInterval: TimeInterval

    init(maxRedrawsPerSecond: Double = 20) {
        minimumInterval = 1 / maxRedrawsPerSecond
        Console.outText("\u{1B}[?25l")  // hide the cursor
    }

    func update(force: Bool = false, _ change: (inout LiveViewState) -> Void) {
        change(&state)
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= minimumInterval else { return }
        lastDraw = now
        draw()
    }

    /// Prints a diagnostic above the view without tearing it.
    func printAbove(_ message: () -> Void) {
        erase()
        message()
        draw()
    }

    /// Leaves the last view on screen and the cursor below it, visible.
    func finish() {
        draw()
        Console.outText("\u{1B}[?25h")
    }

    private func draw() {
        if let load = dspLoadPercent() { state.dspLoadPercent = load }
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        let lines = LiveView.lines(state)
        for line in lines { text += "\r\u{1B}[2K" + line + "\n" }
        drawnLines = lines.count
        Console.outText(text)
    }

    private func erase() {
        guard drawnLines > 0 else { return }
        var text = "\u{1B}[\(drawnLines)A"
        for _ in 0..<drawnLines { text += "\r\u{1B}[2K\n" }
        text += "\u{1B}[\(drawnLines)A"
        drawnLines = 0
        Console.outText(text)
    }
}
