import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// What a user of a PipeWire machine runs first: `scripts/demo`, and the
    /// live view on a terminal.
    @Suite("Under PipeWire's JACK: scripts/demo and the live view")
    struct PipeWireUserTests {
        @Test("scripts/demo where PipeWire is the JACK server and no jackd is on PATH: it runs the demo under pw-jack; without pw-jack a command says to use it")
        func demoScript() throws {
            let pipeWire = try PrivatePipeWire()
            defer { pipeWire.stop() }
            // A PATH with what the script and pw-jack run, and no jackd.
            var template = Array((NSTemporaryDirectory() + "tn-path-XXXXXX").utf8CString)
            let bin = try #require(mkdtemp(&template).map { String(cString: $0) })
            defer { try? FileManager.default.removeItem(atPath: bin) }
            for tool in ["/bin/sh", "/usr/bin/dirname", PrivatePipeWire.pwJack] {
                try FileManager.default.createSymbolicLink(atPath: bin + "/" + URL(fileURLWithPath: tool).lastPathComponent,
                                                           withDestinationPath: tool)
            }
            let root = URL(fileURLWithPath: patchesDirectory).deletingLastPathComponent().path
            // TONENODE_BINARY: the built product, instead of installing and building a release.
            let environment = pipeWire.environment.merging(
                ["PATH": bin, "TONENODE_BINARY": productsDirectory.appendingPathComponent("tonenode").path]) { $1 }
            let result = try runCommand([root + "/scripts/demo"], executable: "/bin/sh", environment: environment,
                                        timeoutSeconds: 60)
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stderr.contains("scripts/demo: running under PipeWire's JACK (pw-jack)"), "\(result.stderr)")
            #expect((result.stdout + result.stderr).contains("all 5 tones identified"), "\(result.stdout)\n\(result.stderr)")
            #expect(!result.stderr.contains("starting a private dummy server"), "\(result.stderr)")
            // Without pw-jack (jackd2's libjack) and no jackd running, the one line says what to do.
            let plain = try runCommand(["run", "--duration", "1"], environment: pipeWire.environment, timeoutSeconds: 10)
            #expect(plain.status == 1)
            #expect(plain.stderrLines.last == "tonenode: error: cannot reach a JACK server, but PipeWire is running: run the "
                    + "command under PipeWire's JACK, `pw-jack tonenode …` (Debian: pipewire-jack)", "\(plain.stderr)")
        }

        @Test("the live view on a terminal (tmux): the loop's tone, retuned from the prompt")
        func liveView() throws {
            let pipeWire = try PrivatePipeWire()
            defer { pipeWire.stop() }
            let binary = productsDirectory.appendingPathComponent("tonenode").path
            let pane = try TmuxPane(socket: "tn-pw-live-\(getpid())", command: "'XDG_RUNTIME_DIR=\(pipeWire.runtimeDirectory) "
                                    + "\(PrivatePipeWire.pwJack) \(binary) run -n live --loopback --freq 440; sleep 30'")
            defer { pane.kill() }
            var lines = try pane.screen(within: 10) { $0.contains { $0.contains("440.0000 Hz") } }
            #expect(lines.filter { $0.hasPrefix(" live  48000 Hz  1024 frames/period") }.count == 1, "\(lines)")
            #expect(lines.last == "tonenode>", "\(lines)")
            _ = try pane.tmux(["send-keys", "-t", "view", "freq 880", "Enter"])
            lines = try pane.screen(within: 10) { $0.contains { $0.contains("880.0000 Hz") } }
            #expect(lines.contains { $0.contains("880.0000 Hz") }, "\(lines)")
            #expect(!lines.contains { $0.contains("freq 880") }, "no debris of the typed line: \(lines)")
            _ = try pane.tmux(["send-keys", "-t", "view", "C-c"])
        }
    }
}
