import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

extension JackServerTests.StressTests {
    /// A client the server gives up on, the part without gdb. jack2 (1.9.21,
    /// and its source to date) never drops a client for overrunning: with a
    /// 200 ms client timeout in sync mode (`-S -t 200`) it skips a late client
    /// and counts xruns. A node SIGSTOPped for 1 s (5 timeouts) and continued
    /// says so on stderr and goes on, its loop connection and tone kept. (A
    /// node jackd drops, made to with gdb: `scripts/stress`, "dropped".)
    @Suite("Stress: a node overrunning its client timeout")
    struct OverrunTests {
        @Test("SIGSTOPped 1 s on a -S -t 200 server: says so and goes on within 2 s, connection and tone kept")
        func overrun() throws {
            let name = "tn-test-sync-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            JackRegistry.reclaimDeadServerSlots()
            let server = try LiveCommand(["-n", name, "-S", "-t", "200", "--no-realtime", "-d", "dummy",
                                          "-r", "48000", "-p", "256"],
                                         executable: "jackd", environment: ["JACK_NO_AUDIO_RESERVATION": "1"],
                                         stopGraceSeconds: 10)
            defer { server.stop() }
            try waitForPort("system:playback_1", server: name, timeoutSeconds: 10)
            let node = try LiveCommand(["run", "-s", name, "-n", "z1", "--loopback", "--json", "--hop", "4096",
                                        "--freq", "523.25"])
            defer { node.stop() }
            #expect(node.waitUntil(timeoutSeconds: 10) { Self.tone(in: $0, after: 0) >= 3 }, "stderr: \(node.stderr)")
            let errorLines = node.stderr.split(separator: "\n").count
            node.signal(SIGSTOP)
            usleep(1_000_000)
            node.signal(SIGCONT)
            let continued = Date()
            let outLines = node.lineCount
            // The reports go out in 0.1 s blocks: the first lines after SIGCONT
            // may be windows taken before the stop (two at this hop), and one
            // more may straddle it; those do not count.
            let wentOn = node.waitUntil(timeoutSeconds: 4) { node in
                node.isRunning && node.stderr.split(separator: "\n").count > errorLines
                    && Self.tone(in: node, after: outLines + 3) >= 3
                    && ((try? connectionsOnServer(name))?["z1:out"] ?? []).contains("z1:in")
            }
            let took = Date().timeIntervalSince(continued)
            let said = node.stderr.split(separator: "\n").dropFirst(errorLines).first ?? ""
            report(String(format: "zombie: overrun (SIGSTOP 1 s, -S -t 200): said '%@' and went on within %.2f s", String(said), took))
            let tone = Self.tone(in: node, after: outLines)
            #expect(wentOn && took < 2,
                    "after \(took) s: running \(node.isRunning), \(tone) tone report(s) after SIGCONT; stderr: \(node.stderr)")
        }

        /// How many reports after stdout line `index` read 523.25 Hz.
        static func tone(in node: LiveCommand, after index: Int) -> Int {
            node.lines(from: index).compactMap(parseReport).filter {
                guard let f = $0["freq_hz"] as? Double else { return false }
                return f >= 523.24 && f < 523.26
            }.count
        }
    }
}
