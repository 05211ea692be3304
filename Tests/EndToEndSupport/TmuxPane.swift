import Foundation
import Testing

/// A terminal for tests of what a person sees: a detached tmux server on a
/// socket of its own, one session `view` running `command` in a pane of the
/// given size. The tmux server outlives the call that starts it, so it must
/// hold none of the test's descriptors (Process notices a child's end by EOF
/// on one of them): bash closes them all before it runs tmux. `kill` ends it.
public struct TmuxPane {
    public let socket: String

    /// Starts the session. `command`: what the pane runs, as one word of a
    /// bash command line (quoted: `'tonenode run …; sleep 30'`); tmux runs it with sh.
    public init(socket: String, command: String, width: Int = 100, height: Int = 24) throws {
        self.socket = socket
        let session = "/usr/bin/tmux -L \(socket) new-session -d -s view -x \(width) -y \(height) \(command)"
        _ = try runCommand(["-c", "for fd in $(ls /proc/$$/fd); do [ $fd -gt 2 ] && eval \"exec $fd>&-\"; done; "
                            + "exec \(session) >/dev/null 2>&1 </dev/null"],
                           executable: "/bin/bash", timeoutSeconds: 10)
    }

    /// `tmux -L SOCKET ARGUMENTS` (`send-keys`, `resize-window`, `display-message` …) for the pane `view`.
    @discardableResult
    public func tmux(_ arguments: [String]) throws -> CommandResult {
        try runCommand(["-L", socket] + arguments, executable: "/usr/bin/tmux", timeoutSeconds: 10)
    }

    /// The pane's lines, trailing blanks removed.
    public func screen() throws -> [String] {
        var lines = try tmux(["capture-pane", "-p", "-t", "view"]).stdout
            .split(separator: "\n", omittingEmptySubsequences: false).map {
                String($0.reversed().drop(while: { $0 == " " }).reversed())
            }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The pane with `lines` lines of its scrollback, for a failure's message
    /// (an ASan CI run, 2026-11-28, once showed a second, torn live view: what
    /// scrolled off tells where the cursor went).
    public func history(lines: Int = 50) -> [String] {
        ((try? tmux(["capture-pane", "-p", "-S", "-\(lines)", "-t", "view"]).stdout) ?? "").split(separator: "\n").map(String.init)
    }

    /// The pane's lines once `condition` holds for them (at most `seconds`).
    public func screen(within seconds: Double = 5, until condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var lines = try screen()
        while !condition(lines), Date() < deadline {
            usleep(100_000)
            lines = try screen()
        }
        return lines
    }

    /// Ends the tmux server (and what runs in it).
    public func kill() { _ = try? tmux(["kill-server"]) }
}
