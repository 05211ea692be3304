import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What `run` changed on the terminal, put back on every way out: the
/// settings `LineEditor` changed (echo, line buffering), a `tonenode> `
/// prompt left on the line, the live view's hidden cursor. `restore` is
/// async-signal-safe (atomics, `tcsetattr`, `write` of static bytes), so a
/// forced exit (a second signal: `timeout` passes Ctrl-C on once more; the
/// grace deadline) and `_exit` paths restore too, not only `atexit`.
///
/// Thread ownership: any thread, and signal handlers.
enum TerminalLine {
    /// The terminal settings to put back; written once before `hasSaved` is set.
    nonisolated(unsafe) private static let saved: UnsafeMutablePointer<termios> = .allocate(capacity: 1)
    private static let hasSaved = Atomic<Bool>(false)
    /// The descriptor whose line holds a prompt (-1: none).
    private static let promptDescriptor = Atomic<Int32>(-1)
    private static let cursorHidden = Atomic<Bool>(false)

    /// Initialises the statics, so a signal handler never does. Once, early.
    static func prepare() {
        _ = saved
        _ = hasSaved.load(ordering: .relaxed)
        _ = promptDescriptor.load(ordering: .relaxed)
        _ = cursorHidden.load(ordering: .relaxed)
    }

    /// The terminal's settings before `LineEditor` changed them.
    static func save(_ settings: termios) {
        guard !hasSaved.load(ordering: .acquiring) else { return }
        saved.pointee = settings
        hasSaved.store(true, ordering: .releasing)
    }

    /// A prompt is on `descriptor`'s current line (a terminal).
    static func promptShown(on descriptor: Int32) { promptDescriptor.store(descriptor, ordering: .relaxed) }

    /// The live view hid the cursor on stdout.
    static func hidCursor() { cursorHidden.store(true, ordering: .relaxed) }

    /// Puts the terminal back: its settings, an empty line where the prompt
    /// was (the shell's prompt starts there), the cursor visible. Idempotent.
    static func restore() {
        if hasSaved.load(ordering: .acquiring) { tcsetattr(STDIN_FILENO, TCSANOW, saved) }
        let descriptor = promptDescriptor.exchange(-1, ordering: .relaxed)
        if descriptor >= 0 { write(clearLine, to: descriptor) }
        if cursorHidden.exchange(false, ordering: .relaxed) { write(showCursor, to: STDOUT_FILENO) }
    }

    private static let clearLine: StaticString = "\r\u{1B}[2K"
    private static let showCursor: StaticString = "\u{1B}[?25h"

    private static func write(_ bytes: StaticString, to descriptor: Int32) {
        _ = Glibc.write(descriptor, bytes.utf8Start, bytes.utf8CodeUnitCount)
    }
}
