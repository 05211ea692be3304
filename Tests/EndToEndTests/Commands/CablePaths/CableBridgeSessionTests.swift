import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests {
    /// The two-way session across two zita-njbridge bridges between two
    /// private jackd servers: forward A → B through the seeded UDP relay,
    /// return B → A direct. `send --file` on A plays into A's `tx:in_1` and
    /// hears B's answers on A's `rx:out_1`; `receive -o` on B hears B's
    /// `rx:out_1` and answers into B's `tx:in_1`.
    @Suite("The cable session across zita-njbridge and the UDP relay")
    struct CableBridgeSessionTests {
        @Test("a 30 ms burst dropped on the forward path costs a resend: the file exact, send exits 0")
        func sessionThroughRelay() throws {
            try CablePathTransfer.require(["/usr/bin/zita-j2n", "/usr/bin/zita-n2j"])
            let (relay, loop) = try ZitaLoop.behindRelay(seed: 33)
            defer { relay.stop() }
            // ZitaLoop wires B's rx back into B's tx (a loop for `link`): here receive stands between them.
            let onB = ["JACK_DEFAULT_SERVER": loop.b.name]
            _ = try runCommand(["rx:out_1", "tx:in_1"], executable: "/usr/bin/jack_disconnect", environment: onB)
            let locked = loop.waitForLock()

            let count = 400_000
            let bytes = CableLinkTests.randomBytes(count, seed: 39)
            let input = ModemCommandLineTests.temporaryPath("bridge-session-in.bin")
            let output = ModemCommandLineTests.temporaryPath("bridge-session-out.bin")
            defer { for path in [input, output] { try? FileManager.default.removeItem(atPath: path) } }
            #expect(FileManager.default.createFile(atPath: input, contents: Data(bytes)))
            let receiver = try LiveCommand(["receive", "-s", loop.b.name, "-n", "rcv", "--connect-in", "rx:out_1",
                                            "--connect-out", "tx:in_1", "--profile", "cable", "-o", output, "--duration", "120"])
            defer { receiver.stop() }
            try waitForPort("rcv:out", server: loop.b.name)
            let started = Date()
            let sender = try LiveCommand(["send", "-s", loop.a.name, "-n", "snd", "--connect-out", "tx:in_1",
                                          "--connect-in", "rx:out_1", "--profile", "cable", "--file", input])
            defer { sender.stop() }
            // The burst once the first segment is in: it hits a later one.
            #expect(receiver.waitUntil(timeoutSeconds: 40) { $0.stderr.contains("cable session: received ") }, "\(receiver.stderr)")
            relay.drop(forSeconds: 0.03)
            let sent = sender.exitStatus(timeoutSeconds: 150)
            let seconds = Date().timeIntervalSince(started)
            #expect(sent?.status == 0, "send: \(sender.stderr)")
            #expect(receiver.exitStatus(timeoutSeconds: 30)?.status == 0, "receive: \(receiver.stderr)")
            #expect(FileManager.default.contents(atPath: output).map(Array.init) == bytes, "the file is not exact")
            let dropped = relay.log.droppedPerWindow
            #expect(dropped.count == 1 && dropped.allSatisfy { $0 > 0 }, "\(dropped)")
            let line = sender.stderr.split(separator: "\n").last { $0.contains("confirmed in ") }.map(String.init) ?? ""
            let resent = line.firstMatch(of: /, (\d+) segment\(s\) resent/).flatMap { Int($0.1) } ?? 0
            #expect(resent >= 1, "the burst cost no resend? send: \(sender.stderr)")
            report(String(format: "cable session through zita-njbridge (forward behind the relay, %d datagram(s) dropped in a "
                          + "30 ms burst; zita-n2j locked in %@): %d bytes, send %.2f s from process start to exit "
                          + "(%.1f kbit/s); ", dropped.first ?? 0, locked.map { String(format: "%.1f s", $0) } ?? "NOT (30 s)",
                          count, seconds, 8 * Double(count) / seconds / 1000) + line)
            report("receive: " + (receiver.stderr.split(separator: "\n").filter { $0.contains("lost") || $0.contains("wrote") }
                .joined(separator: " | ")))
        }
    }
}
