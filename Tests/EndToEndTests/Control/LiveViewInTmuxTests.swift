import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// The live view in a real terminal (tmux), as a person sees it: typed
    /// commands leave no debris, errors appear above the view, the view fits
    /// the width and follows a resize.
    @Suite("the live view in a terminal (tmux)")
    struct LiveViewInTmuxTests {
        let socket = "tn-live-\(getpid())"

        func tmux(_ arguments: [String]) throws -> CommandResult {
            try runCommand(["-L", socket] + arguments, executable: "/usr/bin/tmux", timeoutSeconds: 10)
        }

        /// The pane's lines, trailing blanks removed.
        func screen() throws -> [String] {
            var lines = try tmux(["capture-pane", "-p", "-t", "view"]).stdout
                .split(separator: "\n", omittingEmptySubsequences: false).map {
                    String($0.reversed().drop(while: { $0 == " " }).reversed())
                }
            while lines.last?.isEmpty == true { lines.removeLast() }
            return lines
        }

        /// The pane with 50 lines of its scrollback, for a failure's message
        /// (an ASan CI run, 2026-11-28, once showed a second, torn view: what
        /// scrolled off tells where the cursor went).
        func history() -> [String] {
            ((try? tmux(["capture-pane", "-p", "-S", "-50", "-t", "view"]).stdout) ?? "").split(separator: "\n").map(String.init)
        }

        /// Waits until `condition` holds for the screen (at most `seconds`), then returns it.
        func screen(within seconds: Double = 5, until condition: ([String]) -> Bool) throws -> [String] {
            let deadline = Date().addingTimeInterval(seconds)
            var lines = try screen()
            while !condition(lines), Date() < deadline {
                usleep(100_000)
                lines = try screen()
            }
            return lines
        }

        @Test func goodNeighbour() throws {
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is installed (scripts/install-deps)")
            let server = try startServer()
            defer { server.stop() }
            let binary = productsDirectory.appendingPathComponent("tonenode").path
            // The tmux server outlives this call: it must hold none of our descriptors
            // (Process notices a child's end by EOF on one of them), so bash closes them all first.
            let session = "/usr/bin/tmux -L \(socket) new-session -d -s view -x 100 -y 24 "
                + "'\(binary) run -s \(server.name) -n live --loopback --freq 440; sleep 30'"
            _ = try runCommand(["-c", "for fd in $(ls /proc/$$/fd); do [ $fd -gt 2 ] && eval \"exec $fd>&-\"; done; "
                                + "exec \(session) >/dev/null 2>&1 </dev/null"],
                               executable: "/bin/bash", timeoutSeconds: 10)
            defer { _ = try? tmux(["kill-server"]) }
            let header = " live  48000 Hz  256 frames/period"
            func views(_ lines: [String]) -> Int { lines.filter { $0.hasPrefix(header) }.count }

            var lines = try screen { $0.contains { $0.contains("440.0000 Hz") } }
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(history())")
            #expect(lines.last == "tonenode>", "the prompt sits below the view: \(lines)")

            // What is typed shows on the prompt line, and goes once it is read.
            _ = try tmux(["send-keys", "-t", "view", "freq 880"])
            lines = try screen { $0.last == "tonenode> freq 880" }
            #expect(lines.last == "tonenode> freq 880", "\(lines)")
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(history())")
            _ = try tmux(["send-keys", "-t", "view", "Enter"])
            lines = try screen { $0.contains { $0.contains("880.0000 Hz") } }
            #expect(lines.contains { $0.contains("880.0000 Hz") }, "\(lines)")
            #expect(lines.last == "tonenode>", "\(lines)")
            #expect(!lines.contains { $0.contains("freq 880") }, "no debris of the typed line: \(lines)")
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(history())")

            // A bad command: one error line above the view, the view intact below it.
            _ = try tmux(["send-keys", "-t", "view", "freq 88x", "Enter"])
            lines = try screen { $0.contains { $0.hasPrefix("tonenode: error: ") } }
            let error = try #require(lines.firstIndex { $0.hasPrefix("tonenode: error: 'freq 88x'") }, "\(lines)")
            let view = try #require(lines.firstIndex { $0.hasPrefix(header) }, "\(lines)")
            #expect(error < view)
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(history())")
            #expect(lines.last == "tonenode>", "\(lines)")

            // Narrower: the view fits (no line wraps), once; and wider again.
            _ = try tmux(["resize-window", "-t", "view", "-x", "50"])
            lines = try screen { lines in lines.contains { $0.hasPrefix(" tune") && $0.count < 50 } }
            #expect(lines.allSatisfy { $0.count <= 50 }, "\(lines)")
            #expect(lines.filter { $0.hasPrefix(" tune") }.count == 1, "\(lines)")
            #expect(lines.filter { $0.hasPrefix(" level") }.count == 1, "\(lines)")
            _ = try tmux(["resize-window", "-t", "view", "-x", "100"])
            lines = try screen { lines in lines.contains { $0.hasPrefix(" tune") && $0.count > 50 } }
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(history())")
            #expect(lines.filter { $0.hasPrefix(" tune") }.count == 1, "\(lines)")
            _ = try tmux(["send-keys", "-t", "view", "C-c"])
        }
    }
}
