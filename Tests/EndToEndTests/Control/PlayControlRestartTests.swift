import EndToEndSupport
import Foundation
import Testing
import ToneJack

extension JackServerTests.PlayControlTests {
        @Test("after a server restart: MIDI connection restored when its sender is back, OSC level kept")
        func restart() throws {
            let name = "tn-test-playrestart-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            var server = try startServer(name: name)
            defer { server.stop() }
            var seq: LiveCommand? = try LiveCommand.jackTool(
                "/usr/bin/jack_midiseq", ["seq", "48000", "0", "69", "36000"], server: name)
            try waitForPort("seq:out", server: name)
            let port = freeUDPPort()
            let live = try LiveCommand(["run", "-s", name, "-n", "phoenix", "--json", "--hop", "2048", "--mute",
                                        "--connect-out", "phoenix:in", "--connect-midi", "seq:out", "-O", String(port)])
            let velocityDB = 20 * log10(64.0 / 127)
            #expect(reads(live, 440, dbfs: -18 + velocityDB), "stderr: \(live.stderr)")
            try oscsend(port: port, "/tonenode/level", "f", "-6")
            #expect(reads(live, 440, dbfs: -6 + velocityDB, after: lastReportTime(live)))
            let before = lastReportTime(live)

            // The server goes first and takes the sequencer with it (had the
            // sequencer quit first, a snapshot in between would rightly forget
            // its connection).
            server.stop()
            seq = nil
            #expect(live.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("waiting for it to come back") })
            server = try startServer(name: name)
            #expect(live.waitUntil(timeoutSeconds: 15) { $0.stderr.contains("reconnected:") }, "stderr: \(live.stderr)")
            // The sequencer comes back after the node: the pending connection is made then.
            seq = try LiveCommand.jackTool("/usr/bin/jack_midiseq", ["seq", "48000", "0", "69", "36000"], server: name)
            #expect(live.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("restored: seq:out → midi_in") },
                    "stderr: \(live.stderr)")
            #expect(try connectionsOnServer(name)["phoenix:midi_in"] == ["seq:out"])
            #expect(reads(live, 440, dbfs: -6 + velocityDB, after: max(before, lastReportTime(live)), timeoutSeconds: 15),
                    "stderr: \(live.stderr)\nstdout tail: \(live.stdout.suffix(400))")
            _ = seq
        }
}
