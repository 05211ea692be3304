import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

extension JackServerTests.StressTests {
    /// A server SIGSTOPped under eight nodes (short: 3 s, long with
    /// `TONENODE_STRESS=long`: 10 s): SIGTERMed meanwhile, every node ends
    /// within 2 s; continued, every node runs on (a stopped server's socket
    /// still accepts: the worker's server watch waits a SIGSTOP out).
    @Suite("Stress: the server SIGSTOPped under 8 nodes")
    struct StoppedServerTests {
        @Test("SIGTERM with the server stopped: every node ends within 2 s")
        func signalWhileStopped() throws {
            try Self.whileStopped { server, group in
                group.signal(SIGTERM)
                let ended = group.waitAll(timeoutSeconds: 4)
                // Its clients died while it was stopped: a bounded end, not `stop`'s 10 s wait.
                server.end(graceSeconds: 2)
                report(String(format: "stopped: 8 nodes ended in %.2f s with the server SIGSTOPped (statuses %@)",
                              ended.seconds, NodeGroup.describe(ended.statuses)))
                #expect(!ended.statuses.contains(nil), "statuses \(NodeGroup.describe(ended.statuses))")
                #expect(ended.seconds < 2, "ended in \(ended.seconds) s")
            }
        }

        @Test("the server stopped and continued: every node runs on")
        func runOnAfterContinue() throws {
            try Self.whileStopped { server, group in
                kill(server.pid, SIGCONT)
                usleep(2_000_000)
                let running = group.running
                group.signal(SIGTERM)
                let ended = group.waitAll(timeoutSeconds: 4)
                #expect(running == 8, "\(running) of 8 ran on; stderr: \(group.nodes.map(\.stderr))")
                #expect(ended.statuses.allSatisfy { $0 == 0 }, "statuses \(NodeGroup.describe(ended.statuses))")
            }
        }

        /// Eight nodes on a server, then the server SIGSTOPped for the
        /// stress length's stop; then `body`. Resumed and stopped after.
        static func whileStopped(_ body: (PrivateJackServer, NodeGroup) throws -> Void) throws {
            let server = try startServer()
            defer {
                server.resume()
                server.stop()
            }
            let group = try NodeGroup(server: server.name)
            kill(server.pid, SIGSTOP)
            usleep(UInt32(StressLength.current.stopSeconds * 1e6))
            try body(server, group)
        }
    }
}
