import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests.StressTests {
    /// The server SIGKILLed under eight nodes: no clean-up of jackd's, no
    /// word from it but libjack's shutdown callback (or, when that never
    /// comes, the worker's server watch). Connections and settings kept
    /// across the restart: `ServerRestartTests`.
    @Suite("Stress: the server SIGKILLed under 8 nodes")
    struct ServerKillTests {
        @Test("each says so and reconnects within 2 s of the new server")
        func reconnectAfterKill() throws {
            let name = "tn-test-kill-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            var server = try startServer(name: name)
            defer { server.stop() }
            let group = try NodeGroup(server: name)
            server.end(graceSeconds: 0)
            server = try startServer(name: name)
            let ready = Date()
            let deadline = ready.addingTimeInterval(8)
            while group.saying("reconnected").count < 8 && Date() < deadline { usleep(50_000) }
            let took = Date().timeIntervalSince(ready)
            let reconnected = group.saying("reconnected"), told = group.saying("the JACK server shut the client down")
            group.signal(SIGTERM)
            _ = group.waitAll(timeoutSeconds: 4)
            report(String(format: "sigkill: %d said so, %d of 8 reconnected within %.2f s of the new server",
                          told.count, reconnected.count, took))
            #expect(told.count == 8, "said so: \(told)")
            #expect(reconnected.count == 8, "reconnected: \(reconnected); stderr: \(group.nodes.map(\.stderr))")
            #expect(took < 2, "the last reconnected \(took) s after the new server")
        }

        @Test("with --no-reconnect each exits 1")
        func exitAfterKill() throws {
            let server = try startServer()
            defer { server.stop() }
            let group = try NodeGroup(server: server.name, options: ["--no-reconnect"])
            server.end(graceSeconds: 0)
            let ended = group.waitAll(timeoutSeconds: 4)
            report(String(format: "sigkill --no-reconnect: every node ended within %.2f s (statuses %@)",
                          ended.seconds, NodeGroup.describe(ended.statuses)))
            #expect(ended.statuses.allSatisfy { $0 == 1 }, "statuses \(NodeGroup.describe(ended.statuses))")
        }
    }
}
