import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests.StressTests {
    /// Eight nodes started at once and SIGTERMed at the same instant, as a
    /// studio session ends. Before the metadata helper, all eight hung at
    /// start-up in `jack_set_property` and, SIGKILLed, left jackd itself
    /// unable to stop (docs/engineering/reliability.md). Short: 3 rounds; long
    /// (`TONENODE_STRESS=long`): 50.
    @Suite("Stress: nodes started and stopped together")
    struct TogetherTests {
        @Test("8 nodes started at once, SIGTERMed at once: each exits 0, the slowest round within 2 s; jack_property -l answers after each round")
        func together() throws {
            let server = try startServer()
            defer { server.stop() }
            let rounds = StressLength.current.rounds
            var slowest = 0.0
            for round in 1...rounds {
                let group = try NodeGroup(server: server.name)
                usleep(500_000)
                group.signal(SIGTERM)
                let ended = group.waitAll(timeoutSeconds: 4)
                slowest = max(slowest, ended.seconds)
                report(String(format: "together: round %d: ended in %.2f s (statuses %@)", round, ended.seconds,
                              NodeGroup.describe(ended.statuses)))
                // Within 5 s: the user's metadata store is not wedged.
                let listing = try runCommand(["-l"], executable: "/usr/bin/jack_property",
                                             environment: ["JACK_DEFAULT_SERVER": server.name],
                                             timeoutSeconds: 5, recordsTimeout: false)
                let exitedZero = ended.statuses.allSatisfy { $0 == 0 }
                #expect(exitedZero, "round \(round): statuses \(NodeGroup.describe(ended.statuses))")
                #expect(listing.finished && listing.status == 0,
                        "round \(round): jack_property -l did not answer within 5 s: \(listing.stderr)")
                guard exitedZero && listing.finished else { break }
            }
            #expect(slowest < 2, "the slowest of \(rounds) rounds ended in \(slowest) s")
        }
    }
}
