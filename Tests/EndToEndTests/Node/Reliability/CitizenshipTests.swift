import EndToEndSupport
import Foundation
import Synchronization
import Testing
import ToneJack
import ToneTestSupport

extension JackServerTests {
    @Suite("A good JACK citizen")
    struct CitizenshipTests {
        @Test("pretty names on the client and both ports while it runs, gone after it exits")
        func prettyNamesComeAndGo() throws {
            // Under a uid of its own: the metadata store is the user's, shared with every other server's clients.
            let jack = try OwnUserJack(slot: 0)
            defer { jack.stop() }
            let node = try jack.tonenode(["run", "-s", jack.serverName, "-n", "citizen", "--hop", "4096"])
            defer { node.stop() }
            try jack.waitForPort("citizen:out")
            var names: [String] = []
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                names = try jack.prettyNames()
                if names.count >= 4 { break }
                usleep(50_000)
            }
            #expect(Set(names) == ["ToneNode", "ToneNode analyser input", "ToneNode tone output", "ToneNode MIDI input"],
                    "\(names)")
            // The helper's client is never activated: libjack's lock of the server's graph segment
            // (107 MB, kernel time to lock and to unlock at each of its two opens) must fail at
            // once there: a 1 MiB soft RLIMIT_MEMLOCK and no CAP_IPC_LOCK in its effective set.
            let helpers = jack.metadataHelperPIDs()
            #expect(helpers.count == 1, "helper processes: \(helpers)")
            for pid in helpers {
                let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
                let locked = limits.split(separator: "\n").first { $0.hasPrefix("Max locked memory") }
                    .map { $0.split(separator: " ", omittingEmptySubsequences: true) } ?? []
                // "Max locked memory  SOFT  HARD  bytes": the soft limit is the fourth field.
                #expect(locked.count >= 4 && locked[3] == "1048576", "\(locked)")
                let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
                let effective = status.split(separator: "\n").first { $0.hasPrefix("CapEff:") }
                    .flatMap { UInt64($0.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
                #expect(effective.map { $0 & (1 << 14) == 0 } == true, "CapEff \(String(describing: effective))")
            }
            node.stop()
            try jack.waitForPort("citizen:out", toExist: false)
            #expect(try jack.prettyNames().isEmpty, "metadata removed on exit; stderr: \(node.stderr)")
        }

        @Test("the analysis worker runs niced, below JACK's threads")
        func workerIsNiced() throws {
            let server = try startServer()
            defer { server.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "nicety", "--hop", "4096"], input: .pipe)
            defer { node.stop() }
            try waitForPort("nicety:out", server: server.name)
            // Every thread's nice value (field 19 of /proc/PID/task/TID/stat, after the command in parentheses).
            let tasks = "/proc/\(node.processIdentifier)/task"
            let niceValues = try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap { tid -> Int? in
                guard let stat = try? String(contentsOfFile: "\(tasks)/\(tid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return nil }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return fields.count > 16 ? Int(fields[16]) : nil
            }
            #expect(niceValues.filter { $0 == 10 }.count == 1, "one worker at nice 10: \(niceValues)")
            #expect(niceValues.filter { $0 >= 1 && $0 != 10 }.isEmpty, "\(niceValues)")
        }

        @Test("xruns made elsewhere in the graph: no wake for each one, and not counted as the node's own")
        func othersXrunsCostNothing() throws {
            let server = try startServer(periodFrames: 64)
            defer { server.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "bystander", "--hop", "4096", "--no-metadata"])
            defer { node.stop() }
            try waitForPort("bystander:out", server: server.name)
            let reference = try StreamGapCounter(server: server.name)
            defer { reference.close() }
            // A client on its own (nothing connected to it or to the node) that
            // overruns its period 3 ms every 40th cycle: jackd counts an xrun
            // each time and, to every client with an xrun callback, sends one.
            let cycles = Atomic<Int>(0)
            let late = try JackPeer(name: "latecomer", server: server.name, audioOut: ["out"]) { _ in
                if cycles.add(1, ordering: .relaxed).newValue % 40 == 0 {
                    let until = DispatchTime.now().uptimeNanoseconds + 3_000_000
                    while DispatchTime.now().uptimeNanoseconds < until {}
                }
            }
            defer { late.close() }
            usleep(1_000_000)
            let wakesBefore = Self.notificationThreadWakes(node.processIdentifier)
            let xrunsBefore = try Self.serverXruns(server)
            usleep(5_000_000)
            let xruns = try Self.serverXruns(server) - xrunsBefore
            let wakes = Self.notificationThreadWakes(node.processIdentifier) - wakesBefore
            report("bystander node, 5 s beside a client late every 40th period at 64 frames: jackd counted \(xruns) late-client xruns, "
                   + "the node's libjack threads other than the process thread woke \(wakes) times")
            try #require(xruns >= 20, "the late client made too few xruns to tell: \(xruns)")
            #expect(wakes < xruns / 4, "a wake per xrun: \(wakes) wakes for \(xruns) xruns")
            // Its own stream's xruns only, not one per late client or more (the
            // xrun callback counted 165 for 131: the bug counts at least what
            // jackd counted, every client's late periods). On 2 cores the late client's spin holds
            // the whole graph up too (CI, with builds beside, saw 76 for 96):
            // how often, a client of the test's own in the same graph says, by
            // the node's own rule. Both counts cover the same audio: the late
            // client is gone and the node has ended before either is read, and
            // the node's is the one it says at exit. (A count it said while
            // running is up to its niced worker's idle rest behind, 1 s and
            // more on a loaded machine: ASan's CI run saw |own − reference| 31 so.)
            late.close()
            node.signal(SIGTERM)
            #expect(node.exitStatus(timeoutSeconds: 5) != nil, "the node did not end")
            let own = Self.ownXruns(node.stderr)
            let gaps = reference.gaps
            let allXruns = try Self.serverXruns(server)
            let latePeriods = try Self.latePeriods(server, node: "bystander")
            report("bystander node: \(own) xruns of its own (jackd: late \(latePeriods.node) times); the test's reference "
                   + "client saw \(gaps) in its stream (\(reference.jumpsOnly) of them frame-time jumps only; jackd: late "
                   + "\(latePeriods.reference) times); jackd's late periods of all clients: \(allXruns)")
            Self.expectNear(own, reference: gaps, late: latePeriods, node.stderr)
            let tolerance = Self.tolerance(gaps: gaps, late: latePeriods)
            // That tells the node's own count from the bug's only where the
            // stream's xruns are clearly fewer than jackd's count. A machine
            // that holds the whole graph up as often (a build beside it)
            // cannot tell them apart: counted, not passed.
            if allXruns <= gaps + tolerance {
                withKnownIssue("the machine could not give a fair run", isIntermittent: true) {
                    Issue.record("""
                        the machine could not give a fair run: \(gaps) xruns in the reference's stream, not clearly \
                        fewer than jackd's \(allXruns) late periods, so a count of jackd's would pass too
                        """)
                }
            }
        }

        @Test("a server stopped for 1 s just before the stop: the node says its xruns at exit")
        func stalledServerCounted() throws {
            let server = try startServer()
            defer {
                server.resume()
                server.stop()
            }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "stalled", "--hop", "4096", "--no-metadata"])
            defer { node.stop() }
            try waitForPort("stalled:out", server: server.name)
            let reference = try StreamGapCounter(server: server.name)
            defer { reference.close() }
            usleep(500_000)
            // No period runs while the server is stopped; the first after it
            // starts a second later than the last (the frame counter may not
            // jump). The node's input is unconnected, so its worker rests a
            // second between looks: the stop comes before it has looked again,
            // and only the last word at exit can say them (it was lost).
            kill(server.pid, SIGSTOP)
            usleep(1_000_000)
            kill(server.pid, SIGCONT)
            usleep(500_000)
            node.signal(SIGTERM)
            #expect(node.exitStatus(timeoutSeconds: 5) != nil, "the node did not end")
            let own = Self.ownXruns(node.stderr)
            let gaps = reference.gaps
            let late = try Self.latePeriods(server, node: "stalled")
            report("a 1 s stall: the node said \(own) xruns at exit (jackd: late \(late.node) times); the test's reference "
                   + "client saw \(gaps) in its stream (jackd: late \(late.reference) times)")
            // At least the stall; not one per period it lasted (187). On this
            // machine 1 when idle, 32–34 with builds beside it (the catch-up).
            #expect(own >= 1 && own < 187, "the node counted \(own) xruns for one 1 s stall: \(node.stderr)")
            Self.expectNear(own, reference: gaps, late: late, node.stderr)
        }

        /// The node's own count against the reference client's gaps (both
        /// over the same audio: the node's is the one it says at exit; one
        /// said while it runs is up to its worker's idle rest behind).
        static func expectNear(_ own: Int, reference gaps: Int, late: (node: Int, reference: Int), _ stderr: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
            let why = "the node counted \(own) xruns of its own, a client beside it \(gaps) in its stream "
                + "(jackd: the node late \(late.node) times, the reference \(late.reference)): \(stderr)"
            #expect(abs(own - gaps) <= tolerance(gaps: gaps, late: late), Comment(rawValue: why),
                    sourceLocation: sourceLocation)
        }

        /// How far apart the two counts may be. Not equal: each counts its own
        /// stream. The stalls of the whole graph they share; the periods a
        /// client itself ran late only its own stream has, and jackd names
        /// that client for each (26 for 48 with the node late 9 times and the
        /// reference 30; 6 for 3 after a 1 s stall beside a busy loop). Beyond
        /// those, two threads on a busy 2-core machine are held up apart by up
        /// to a third of the count (46 runs, 2026-12-06, builds and busy loops
        /// beside, ASan too: at most 20 of 54, 75 for 54 with 19 and 20 late
        /// periods). So: half and 2, and the difference of their late periods.
        /// The bug's count is every client's late periods and more, 1.7 to 6
        /// times the reference's in the fair runs.
        static func tolerance(gaps: Int, late: (node: Int, reference: Int)) -> Int {
            gaps / 2 + 2 + abs(late.node - late.reference)
        }

        /// jackd's late periods of the node's client and of the reference.
        static func latePeriods(_ server: PrivateJackServer, node: String) throws -> (node: Int, reference: Int) {
            (try serverXruns(server, client: node), try serverXruns(server, client: "reference"))
        }

        /// A client of the test's own beside the node: counts its stream's
        /// xruns by the node's own rule (`tn_check_frame_time`): the period's
        /// frame time is not the last one's plus its length (periods lost or
        /// run twice), or its callback began more than two periods after the
        /// last began (a stall or a late cycle, seen from inside the graph).
        /// The reference for the node's count of its own.
        final class StreamGapCounter: Sendable {
            private let counted = Atomic<Int>(0)
            private let countedJumpsOnly = Atomic<Int>(0)
            private let lastNs = Atomic<UInt64>(0)
            /// The last period's frame time and length (JACK thread only; atomics for Sendable).
            private let lastFrameTime = Atomic<UInt32>(0)
            private let lastFrames = Atomic<Int>(0)
            private let peer: Mutex<JackPeer?> = Mutex(nil)
            var gaps: Int { counted.load(ordering: .relaxed) }
            /// Of `gaps`, those whose callback was on time but whose frame time jumped.
            var jumpsOnly: Int { countedJumpsOnly.load(ordering: .relaxed) }

            init(server: String) throws {
                let peer = try JackPeer(name: "reference", server: server, audioIn: ["in"]) { [self] cycle in
                    let now = DispatchTime.now().uptimeNanoseconds
                    let previous = lastNs.exchange(now, ordering: .relaxed)
                    let previousFrameTime = lastFrameTime.exchange(cycle.frameTime, ordering: .relaxed)
                    let previousFrames = lastFrames.exchange(cycle.frames, ordering: .relaxed)
                    let jumped = cycle.frameTime &- previousFrameTime != UInt32(previousFrames)
                    let late = Double(now - previous) * cycle.sampleRateHz > 2e9 * Double(previousFrames)
                    if previous != 0, jumped || late {
                        counted.add(1, ordering: .relaxed)
                        if !late { countedJumpsOnly.add(1, ordering: .relaxed) }
                    }
                }
                self.peer.withLock { $0 = peer }
            }

            func close() { peer.withLock { $0?.close() } }
        }

        /// The xruns a node said it had at exit ("N xrun(s); …" on stderr), 0 when it said none.
        static func ownXruns(_ stderr: String) -> Int {
            stderr.split(separator: "\n").compactMap { line in
                line.firstRange(of: " xrun(s)").flatMap { Int(line[..<$0.lowerBound].split(separator: " ").last ?? "") }
            }.max() ?? 0
        }

        /// The node's libjack threads (named tonenode-jack) and their voluntary context switches.
        static func jackThreads(_ pid: Int32) -> [(tid: String, wakes: Int)] {
            let tasks = "/proc/\(pid)/task"
            return ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).compactMap { tid in
                guard (try? String(contentsOfFile: "\(tasks)/\(tid)/comm", encoding: .utf8))?.hasPrefix("tonenode-jack") == true,
                      let status = try? String(contentsOfFile: "\(tasks)/\(tid)/status", encoding: .utf8),
                      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
                      let wakes = Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "")
                else { return nil }
                return (tid, wakes)
            }
        }

        /// Voluntary context switches of the node's libjack threads other than
        /// the busiest one, the process thread.
        static func notificationThreadWakes(_ pid: Int32) -> Int {
            jackThreads(pid).map(\.wakes).sorted().dropLast().reduce(0, +)
        }

        /// jackd's "client = … was not finished" lines so far (one per late
        /// client per xrun): all of them, or those naming `client`.
        static func serverXruns(_ server: PrivateJackServer, client: String? = nil) throws -> Int {
            let log = try String(contentsOfFile: serverLogPath(server.name), encoding: .utf8)
            let line = client.map { "client = \($0) was not finished" } ?? "was not finished"
            return log.components(separatedBy: line).count - 1
        }
    }
}
