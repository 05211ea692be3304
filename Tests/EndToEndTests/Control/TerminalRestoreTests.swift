import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// `timeout 300 tonenode run` at a shell in a terminal, stopped with
    /// Ctrl-C: the terminal's SIGINT reaches tonenode, and `timeout` passes it
    /// on once more, which forces the exit (130). Every way out, that one too,
    /// leaves the terminal as it was: its settings (echo, line buffering), no
    /// `tonenode>` where the shell writes next, the cursor visible. The two
    /// SIGINTs are sent here by pid, a few milliseconds apart: from a key
    /// press they can arrive as one (a pending signal is not queued twice).
    @Suite("the terminal put back on every way out (tmux)")
    struct TerminalRestoreTests {
        /// The first child of process `pid`.
        static func child(of pid: Int32) -> Int32? {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            return children.split(separator: " ").first.flatMap { Int32($0) }
        }

        @Test("a forced exit under timeout, with the live view and its prompt, and without the view (prompt on stderr)",
              arguments: [true, false])
        func forcedExitUnderTimeout(liveView: Bool) throws {
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is installed (scripts/install-deps)")
            let server = try startServer()
            defer { server.stop() }
            let binary = productsDirectory.appendingPathComponent("tonenode").path
            // One tmux server per case (they run at once); it must hold none of
            // our descriptors (see TmuxPane). An interactive shell, so
            // `timeout` leads the terminal's foreground job, as at a prompt.
            let pane = try TmuxPane(socket: "tn-restore-\(getpid())-\(liveView)",
                                    command: "\"env PS1='shell$ ' bash --norc --noprofile -i\"", width: 120, height: 30)
            defer { pane.kill() }
            // Without the view: reports to /dev/null, so only the prompt is on the terminal.
            let command = "s=$(stty -g); timeout 300 \(binary) run -s \(server.name) -n live --loopback --freq 440"
                + (liveView ? "" : " >/dev/null")
                + "; status=$?; [ \"$(stty -g)\" = \"$s\" ] && t=same || t=changed; echo \"status $status, terminal $t\""
            _ = try pane.screen(within: 10) { $0.last == "shell$" }
            _ = try pane.tmux(["send-keys", "-t", "view", command, "Enter"])
            // (Without the view a diagnostic on stderr, such as an xrun count, may follow the prompt on its line.)
            var lines = try pane.screen(within: 10) { lines in
                liveView ? lines.last == "tonenode>" && lines.contains { $0.contains("440.0000 Hz") }
                         : lines.contains { $0.hasPrefix("tonenode>") }
            }
            #expect(lines.contains { $0.hasPrefix("tonenode>") }, "\(lines)")
            let shell = try #require(Int32(try pane.tmux(["display-message", "-p", "-t", "view", "#{pane_pid}"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)))
            let node = try #require(Self.child(of: shell).flatMap(Self.child(of:)), "timeout's child")
            kill(node, SIGINT)
            usleep(5_000)
            kill(node, SIGINT)
            lines = try pane.screen(within: 10) { $0.last == "shell$" && $0.contains { $0.hasPrefix("status ") } }
            #expect(lines.suffix(2) == ["status 130, terminal same", "shell$"], "the line is the shell's: \(lines.suffix(4))")
            if liveView { #expect(!lines.contains { $0.contains("tonenode>") }, "\(lines)") }
            let cursor = try pane.tmux(["display-message", "-p", "-t", "view", "#{cursor_flag}"]).stdout
            #expect(cursor.hasPrefix("1"), "the cursor is visible")
        }
    }
}
