import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// The live view in a real terminal (tmux), as a person sees it: typed
    /// commands leave no debris, errors appear above the view, the view fits
    /// the width and follows a resize.
    @Suite("the live view in a terminal (tmux)")
    struct LiveViewInTmuxTests {
        @Test func goodNeighbour() throws {
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is installed (scripts/install-deps)")
            let server = try startServer()
            defer { server.stop() }
            let binary = productsDirectory.appendingPathComponent("tonenode").path
            let pane = try TmuxPane(socket: "tn-live-\(getpid())",
                                    command: "'\(binary) run -s \(server.name) -n live --loopback --freq 440; sleep 30'")
            defer { pane.kill() }
            let header = " live  48000 Hz  256 frames/period"
            func views(_ lines: [String]) -> Int { lines.filter { $0.hasPrefix(header) }.count }

            var lines = try pane.screen { $0.contains { $0.contains("440.0000 Hz") } }
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(pane.history())")
            #expect(lines.last == "tonenode>", "the prompt sits below the view: \(lines)")

            // What is typed shows on the prompt line, and goes once it is read.
            _ = try pane.tmux(["send-keys", "-t", "view", "freq 880"])
            lines = try pane.screen { $0.last == "tonenode> freq 880" }
            #expect(lines.last == "tonenode> freq 880", "\(lines)")
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(pane.history())")
            _ = try pane.tmux(["send-keys", "-t", "view", "Enter"])
            lines = try pane.screen { $0.contains { $0.contains("880.0000 Hz") } }
            #expect(lines.contains { $0.contains("880.0000 Hz") }, "\(lines)")
            #expect(lines.last == "tonenode>", "\(lines)")
            #expect(!lines.contains { $0.contains("freq 880") }, "no debris of the typed line: \(lines)")
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(pane.history())")

            // A bad command: one error line above the view, the view intact below it.
            _ = try pane.tmux(["send-keys", "-t", "view", "freq 88x", "Enter"])
            lines = try pane.screen { $0.contains { $0.hasPrefix("tonenode: error: ") } }
            let error = try #require(lines.firstIndex { $0.hasPrefix("tonenode: error: 'freq 88x'") }, "\(lines)")
            let view = try #require(lines.firstIndex { $0.hasPrefix(header) }, "\(lines)")
            #expect(error < view)
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(pane.history())")
            #expect(lines.last == "tonenode>", "\(lines)")

            // Narrower: the view fits (no line wraps), once; and wider again.
            _ = try pane.tmux(["resize-window", "-t", "view", "-x", "50"])
            lines = try pane.screen { lines in lines.contains { $0.hasPrefix(" tune") && $0.count < 50 } }
            #expect(lines.allSatisfy { $0.count <= 50 }, "\(lines)")
            #expect(lines.filter { $0.hasPrefix(" tune") }.count == 1, "\(lines)")
            #expect(lines.filter { $0.hasPrefix(" level") }.count == 1, "\(lines)")
            _ = try pane.tmux(["resize-window", "-t", "view", "-x", "100"])
            lines = try pane.screen { lines in lines.contains { $0.hasPrefix(" tune") && $0.count > 50 } }
            #expect(views(lines) == 1, "\(lines); with the scrollback: \(pane.history())")
            #expect(lines.filter { $0.hasPrefix(" tune") }.count == 1, "\(lines)")
            _ = try pane.tmux(["send-keys", "-t", "view", "C-c"])
        }
    }
}
