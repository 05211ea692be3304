import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// Issue 13: never hang, never crash, whatever runs beside the node.
    /// scripts/stress holds the many-node and server-fault promises; these are
    /// the single-node ones, in the suite.
    @Suite("Reliability: signals, closed output, metadata")
    struct ReliabilityTests {
        @Test("--no-metadata: no pretty names at all")
        func noMetadata() throws {
            // Under a uid of its own: the metadata store is the user's, shared with every other server's clients.
            let jack = try OwnUserJack(slot: 1)
            defer { jack.stop() }
            let node = try jack.tonenode(["run", "-s", jack.serverName, "-n", "plain", "--hop", "4096", "--no-metadata"])
            defer { node.stop() }
            try jack.waitForPort("plain:out")
            usleep(500_000)
            #expect(try jack.prettyNames().isEmpty)
            // And no metadata helper process started (a process of that uid naming the hidden subcommand).
            let helpers = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { entry in
                guard Int(entry) != nil, let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                      let owner = (try? FileManager.default.attributesOfItem(atPath: "/proc/\(entry)"))?[.ownerAccountID]
                        as? NSNumber else { return false }
                return owner.uint32Value == jack.uid
                    && String(decoding: line, as: UTF8.self).contains("__jack-metadata-helper")
            } ?? []
            #expect(helpers.isEmpty, "helper processes: \(helpers)")
        }

        @Test("SIGTERM ends the node within 2 s while the server is SIGSTOPped")
        func signalWithStoppedServer() throws {
            let server = try startServer()
            defer {
                kill(server.pid, SIGCONT)
                server.stop()
            }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "frozen", "--hop", "4096"])
            defer { node.stop() }
            try waitForPort("frozen:out", server: server.name)
            kill(server.pid, SIGSTOP)
            usleep(300_000)
            let sent = Date()
            node.signal(SIGTERM)
            let exit = node.exitStatus(timeoutSeconds: 5)
            let seconds = Date().timeIntervalSince(sent)
            kill(server.pid, SIGCONT)
            #expect(exit != nil && seconds < 2, "ended after \(seconds) s: \(String(describing: exit))")
        }

        @Test("stdout closed by its reader (| head -1): status 141, nothing on stderr but the start-up line")
        func closedPipe() throws {
            let server = try startServer()
            defer { server.stop() }
            let tonenode = productsDirectory.appendingPathComponent("tonenode").path
            let result = try runCommand(
                ["-c", "\"$0\" run -s \"$1\" -n piped --json --hop 1024 | head -1 >/dev/null; exit ${PIPESTATUS[0]}",
                 tonenode, server.name],
                executable: "/bin/bash", timeoutSeconds: 20)
            #expect(result.status == 141, "\(result.status): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
        }

        @Test("stdout on /dev/full: one error line, status 1")
        func fullDevice() throws {
            let server = try startServer()
            defer { server.stop() }
            let tonenode = productsDirectory.appendingPathComponent("tonenode").path
            let result = try runCommand(
                ["-c", "\"$0\" run -s \"$1\" -n full --json --hop 1024 --duration 2 >/dev/full", tonenode, server.name],
                executable: "/bin/bash", timeoutSeconds: 20)
            let errors = result.stderr.split(separator: "\n").filter { $0.contains("error") }
            #expect(result.status == 1 && errors.count == 1, "\(result.status): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
        }
    }
}
