import Foundation
import ToneCommandLine

/// A cable session's progress on stderr: on a terminal one line rewritten in
/// place, otherwise a line of its own at most every `intervalSeconds` (a log
/// or a pipe gets a readable trail, not a flood). Lines that must stay
/// (`say`) clear the progress first.
///
/// One task at a time uses it (the command's).
struct CableProgressLine {
    static let intervalSeconds = 3.0
    let rewritesInPlace: Bool
    private var lastLineSeconds = -Double.infinity
    private var lastLine = ""
    private var showing = false

    init(rewritesInPlace: Bool = isatty(STDERR_FILENO) == 1) { self.rewritesInPlace = rewritesInPlace }

    /// The progress now (`nowSeconds`: the session's clock).
    mutating func update(_ text: String, nowSeconds: Double) {
        if rewritesInPlace {
            Console.errText("\r\u{1B}[2Ktonenode: " + text)
            showing = true
        } else if nowSeconds - lastLineSeconds >= Self.intervalSeconds && text != lastLine {
            Console.err(text)
            lastLineSeconds = nowSeconds
            lastLine = text
        }
    }

    /// A line that stays (a loss, the final line).
    mutating func say(_ line: String) {
        clear()
        Console.err(line)
    }

    /// Takes the in-place line off the terminal.
    mutating func clear() {
        guard showing else { return }
        Console.errText("\r\u{1B}[2K")
        showing = false
    }

    /// `bytes` over `seconds` in kbit/s.
    static func kilobitsPerSecond(_ bytes: Int, _ seconds: Double) -> Double { Double(8 * bytes) / max(seconds, 1e-9) / 1000 }
}
