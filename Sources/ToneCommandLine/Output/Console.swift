import Foundation
import Synchronization

/// Line output with write(2), unbuffered, so pipes see each report at once.
///
/// Like a Unix tool: when stdout's reader has gone (EPIPE), the command ends
/// quietly with status 141 (what a shell shows for a tool ended by SIGPIPE, so
/// `set -o pipefail` scripts still see the cut); any other write error (a full
/// disk, `/dev/full`) is one `tonenode: error:` line on stderr and status 1.
/// Either way later output is dropped and the command's stop handler (set with
/// `onOutputFailure`) ends it in order; without one the process exits at once.
/// SIGPIPE is ignored (ToneNodeCommand), so a closed pipe is an error code here.
///
/// Thread ownership: any thread; each line is one `write` loop.
public enum Console {
    /// 0 while stdout works; else the exit status it asks for (141 or 1).
    private static let failureStatus = Atomic<Int32>(0)
    private static let stopOnFailure = Mutex<(@Sendable () -> Void)?>(nil)

    /// The exit status stdout's failure asks for (nil: none failed).
    public static var outputFailureStatus: Int32? {
        let status = failureStatus.load(ordering: .acquiring)
        return status == 0 ? nil : status
    }

    /// What to call when stdout fails (a node's stop request).
    public static func onOutputFailure(_ stop: @escaping @Sendable () -> Void) {
        stopOnFailure.withLock { $0 = stop }
    }

    public static func out(_ line: String) { outText(line + "\n") }

    /// Writes `text` as it is (the live view's escape sequences).
    public static func outText(_ text: String) {
        guard failureStatus.load(ordering: .acquiring) == 0 else { return }
        let code = write(text, to: STDOUT_FILENO)
        guard code != 0 else { return }
        outputFailed(errno: code)
    }

    /// Stdout failed with `code` (from any writer of it: `LineWriter` too):
    /// the first failure sets the status, says so (not for EPIPE) and stops.
    public static func outputFailed(errno code: Int32) {
        let status: Int32 = code == EPIPE ? 141 : 1
        guard failureStatus.compareExchange(expected: 0, desired: status, ordering: .acquiringAndReleasing).exchanged
        else { return }
        if status == 1 { err("error: cannot write to stdout: " + String(cString: strerror(code))) }
        guard let stop = stopOnFailure.withLock({ $0 }) else { Glibc.exit(status) }
        stop()
    }

    public static func err(_ line: String) { errText("tonenode: " + line + "\n") }

    /// Writes `text` to stderr as it is (the control prompt). A failing
    /// stderr has nowhere to be reported: it is ignored.
    public static func errText(_ text: String) {
        _ = write(text, to: STDERR_FILENO)
    }

    /// Writes all of `text`; returns 0 or the errno that stopped it.
    private static func write(_ text: String, to descriptor: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }
}
