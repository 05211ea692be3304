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
            let socket = "tn-pw-live-\(getpid())"
            func tmux(_ arguments: [String]) throws -> CommandResult {
                try runCommand(["-L", socket] + arguments, executable: "/usr/bin/tmux", timeoutSeconds: 10)
            }
            func screen(until condition: ([String]) -> Bool) throws -> [String] {
                let deadline = Date().addingTimeInterval(10)
                var lines: [String] = []
                repeat {
                    lines = try tmux(["capture-pane", "-p", "-t", "view"]).stdoutLines
                        .map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
                    if condition(lines) { break }
                    usleep(100_000)
                } while Date() < deadline
                return lines
            }
            let binary = productsDirectory.appendingPathComponent("tonenode").path
            // As in LiveViewInTmuxTests: the tmux server must hold none of our descriptors.
            let session = "/usr/bin/tmux -L \(socket) new-session -d -s view -x 100 -y 24 "
                + "'XDG_RUNTIME_DIR=\(pipeWire.runtimeDirectory) \(PrivatePipeWire.pwJack) \(binary) run -n live --loopback --freq 440; sleep 30'"
            _ = try runCommand(["-c", "for fd in $(ls /proc/$$/fd); do [ $fd -gt 2 ] && eval \"exec $fd>&-\"; done; "
                                + "exec \(session) >/dev/null 2>&1 </dev/null"],
                               executable: "/bin/bash", timeoutSeconds: 10)
            defer { _ = try? tmux(["kill-server"]) }
            var lines = try screen { $0.contains { $0.contains("440.0000 Hz") } }
            #expect(lines.filter { $0.hasPrefix(" live  48000 Hz  1024 frames/period") }.count == 1, "\(lines)")
            #expect(lines.last == "tonenode>", "\(lines)")
            _ = try tmux(["send-keys", "-t", "view", "freq 880", "Enter"])
            lines = try screen { $0.contains { $0.contains("880.0000 Hz") } }
            #expect(lines.contains { $0.contains("880.0000 Hz") }, "\(lines)")
            #expect(!lines.contains { $0.contains("freq 880") }, "no debris of the typed line: \(lines)")
            _ = try tmux(["send-keys", "-t", "view", "C-c"])
        }
    }
}
