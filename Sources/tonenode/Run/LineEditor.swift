import Foundation

/// Reads typed lines from a terminal with its echo and line buffering off,
/// so the live view draws the line being typed itself (see
/// `LiveViewRenderer`): Backspace deletes, Enter hands the line over, Ctrl-D
/// on an empty line ends input, Ctrl-U clears. Ctrl-C still interrupts (ISIG
/// stays on). The terminal's settings are restored by `restore()` and at exit.
///
/// Control reader's thread only (`readLine`); `restore` from any thread, once.
final class LineEditor: @unchecked Sendable {
    private let echo: (String) -> Void
    private var buffer: [UInt8] = []

    /// - Parameter echo: shows the line typed so far (called after every key).
    init?(echo: @escaping (String) -> Void) {
        var settings = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 else { return nil }
        TerminalLine.save(settings)
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else { return nil }
        atexit { TerminalLine.restore() }
        self.echo = echo
    }

    /// Puts the terminal back as it was (and the prompt's line: `TerminalLine`).
    static func restore() { TerminalLine.restore() }

    /// The next typed line, or nil at end of input.
    func readLine() -> String? {
        var byte: UInt8 = 0
        while true {
            let got = read(STDIN_FILENO, &byte, 1)
            if got < 0, errno == EINTR { continue }
            guard got == 1 else { return nil }
            switch byte {
            case 0x0A, 0x0D:  // Enter
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                echo("")
                return line
            case 0x04:  // Ctrl-D: end of input on an empty line
                if buffer.isEmpty { return nil }
            case 0x7F, 0x08:  // Backspace: drop one UTF-8 character
                while let last = buffer.popLast(), last & 0xC0 == 0x80 {}
                echo(String(decoding: buffer, as: UTF8.self))
            case 0x15:  // Ctrl-U
                buffer.removeAll()
                echo("")
            case 0x1B:  // an escape sequence (arrow keys): ignored, with its tail
                var tail: UInt8 = 0
                while read(STDIN_FILENO, &tail, 1) == 1, !(0x40...0x7E).contains(tail) || tail == 0x5B {}
            default:
                guard byte >= 0x20 else { continue }
                buffer.append(byte)
                echo(String(decoding: buffer, as: UTF8.self))
            }
        }
    }
}
