import Foundation
import Synchronization
import ToneCommandLine

/// Draws `LiveView` on a terminal in place, at most `maxRedrawsPerSecond`,
/// as a good neighbour: diagnostics are printed above the view, the view fits
/// the terminal's width at every redraw (so resizes are followed), and with an
/// interactive prompt (stdin a terminal) the prompt line sits below the view
/// and the renderer draws what is typed there itself (`LineEditor` turns the
/// terminal's echo off), so a redraw never lands in the middle of typing and
/// a typed command leaves nothing behind.
///
/// Called from the main thread (reports) and from the control reader's thread
/// (typed lines, their errors); every write to the terminal happens under
/// `lock`, which also guards all the state: that is why it is `@unchecked Sendable`.
final class LiveViewRenderer: @unchecked Sendable {
    private let lock = NSLock()
    private var state = LiveViewState()
    /// Read at each redraw (the running node's client).
    var dspLoadPercent: () -> Double? = { nil }
    /// Lines of the view on screen now, and the lengths they were drawn at (for a resize).
    private var drawnLengths: [Int] = []
    private var drawnColumns = 0
    private var lastDraw = Date.distantPast
    private let minimumInterval: TimeInterval
    /// The prompt shown below the view (nil: no prompt; the cursor rests below the view).
    private let prompt: String?
    /// The text typed after the prompt (the renderer echoes it: the terminal's echo is off).
    private var input = ""

    init(maxRedrawsPerSecond: Double = 20, prompt: String? = nil) {
        minimumInterval = 1 / maxRedrawsPerSecond
        self.prompt = prompt
        // Hide the cursor unless someone types at it.
        if prompt == nil {
            write("\u{1B}[?25l")
            TerminalLine.hidCursor()
        } else {
            TerminalLine.promptShown(on: STDOUT_FILENO)
        }
    }

    func update(force: Bool = false, _ change: (inout LiveViewState) -> Void) {
        lock.withLock {
            change(&state)
            let now = Date()
            guard force || now.timeIntervalSince(lastDraw) >= minimumInterval else { return }
            lastDraw = now
            draw()
        }
    }

    /// Prints a diagnostic (to stderr, through `message`) above the view without tearing it.
    func printAbove(_ message: () -> Void) {
        lock.withLock {
            erase()
            message()
            draw()
        }
    }

    /// What the person has typed so far on the prompt line (the line editor's buffer).
    func setInput(_ text: String) {
        lock.withLock {
            input = text
            guard let prompt, !drawnLengths.isEmpty else { return }
            write("\r\u{1B}[2K" + prompt + text)
        }
    }

    /// Leaves the last view on screen and the cursor below it, visible.
    func finish() {
        lock.withLock {
            draw()
            write((prompt != nil ? "\r\u{1B}[2K" : "") + "\u{1B}[?25h")
            drawnLengths = []
        }
    }

    /// The terminal's width, from stdout (80 when it cannot be read).
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    // MARK: - Drawing (under `lock`)

    private func draw() {
        if let load = dspLoadPercent() { state.dspLoadPercent = load }
        let columns = Self.columns()
        let lines = LiveView.lines(state, columns: columns)
        // The cursor is on the prompt line (or, with no prompt, at the start of the line below the view).
        var text = "\r"
        if !drawnLengths.isEmpty {
            let rows = rowsOnScreen(columns: columns)
            text += "\u{1B}[\(rows)A"
            // After a resize, clear what the old width left below the lines.
            if columns != drawnColumns { text += "\u{1B}[J" }
        }
        for line in lines { text += "\u{1B}[2K" + line + "\r\n" }
        if let prompt { text += "\u{1B}[2K" + String((prompt + input).suffix(max(1, columns - 1))) }
        drawnLengths = lines.map(\.count)
        drawnColumns = columns
        write(text)
    }

    /// Rows the drawn view takes now: more than its lines when the terminal
    /// got narrower and reflowed them (tmux, VTE); each line was cut to the
    /// width it was drawn at, so a wider terminal leaves one row per line.
    private func rowsOnScreen(columns: Int) -> Int {
        guard columns < drawnColumns else { return drawnLengths.count }
        return drawnLengths.reduce(0) { $0 + max(1, ($1 + columns - 1) / columns) }
    }

    /// Removes the view (and the prompt line) and leaves the cursor where the view began.
    private func erase() {
        guard !drawnLengths.isEmpty else { return }
        let rows = rowsOnScreen(columns: Self.columns())
        write("\r\u{1B}[\(rows)A\r\u{1B}[J")
        drawnLengths = []
    }

    private func write(_ text: String) {
        Console.outText(text)
    }
}
