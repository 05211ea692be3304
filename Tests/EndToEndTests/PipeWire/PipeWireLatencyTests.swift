import EndToEndSupport
import Foundation
import Testing

/// `latency_peer` (this folder's latency_peer.c), compiled once against
/// jackd2's headers; run under pw-jack it talks to PipeWire.
private let latencyPeer: Result<String, Error> = {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("latency_peer.c").path
    let output = NSTemporaryDirectory() + "tn-latency-peer-\(getpid())"
    do {
        let result = try runCommand(["-O1", "-Wall", "-Wextra", "-Werror", "-o", output, source, "-ljack"],
                                    executable: "/usr/bin/cc", timeoutSeconds: 60)
        guard result.status == 0 else { throw CompileFailure(description: result.stderr) }
        return .success(output)
    } catch {
        return .failure(error)
    }
}()

private struct CompileFailure: Error, CustomStringConvertible {
    let description: String
}

extension JackServerTests {
    /// Latency through PipeWire's clients and links: what `audit` and `link`
    /// measure, against what PipeWire reports (`jack_port_get_latency_range`,
    /// `jack_lsp -l`). docs/pipewire/latency.md has the figures.
    @Suite("Under PipeWire's JACK: latency measured and reported")
    struct PipeWireLatencyTests {
        @Test("a chain of two clients: audit reads each path's delay against PipeWire's report; link reads the quantum plus the chain")
        func chainOfClients() throws {
            let peer = try latencyPeer.get()
            let pipeWire = try PrivatePipeWire()
            defer { pipeWire.stop() }
            // "Delay Box" delays 100 frames and says 100; "Liar Box" delays 50 and says 200.
            let honest = try pipeWire.live(["Delay Box", "100", "100"], executable: peer, input: .pipe)
            defer { honest.stop() }
            let liar = try pipeWire.live(["Liar Box", "50", "200"], executable: peer, input: .pipe)
            defer { liar.stop() }
            #expect(pipeWire.waitForPort("Delay Box:out") && pipeWire.waitForPort("Liar Box:in"), "\(honest.stderr)\(liar.stderr)")
            let connect = try pipeWire.run(["Delay Box:out", "Liar Box:in"], executable: "jack_connect", timeoutSeconds: 10)
            #expect(connect.status == 0, "\(connect.stderr)")
            // PipeWire adds up what the clients report, as jackd2 does.
            let reported = try pipeWire.run(["-l", "Liar Box:out"], executable: "jack_lsp", timeoutSeconds: 10)
            #expect(reported.stdout.contains("port capture latency = [ 300 300 ] frames"), "\(reported.stdout)")

            let audit = try pipeWire.run(["audit", "--connect-out", "Delay Box:in", "--connect-in", "Delay Box:out",
                                          "--connect-in", "Liar Box:out", "--json"], timeoutSeconds: 90)
            #expect(audit.status == 2, "one path misreported: \(audit.stdout)\n\(audit.stderr)")
            let paths = audit.stdoutLines.compactMap(parseReport).filter { $0["summary"] == nil }
            #expect(paths.count == 2, "\(audit.stdout)\n\(audit.stderr)")
            for path in paths {
                let end = path["path_in"] as? String
                let (measured, reportedFrames) = end == "Delay Box:out" ? (100.0, 100.0) : (150.0, 300.0)
                #expect(abs((path["measured_frames"] as? Double ?? .nan) - measured) < 0.01, "\(path)")
                #expect((path["reported_min_frames"] as? NSNumber)?.doubleValue == reportedFrames, "\(path)")
                #expect(path["misreported"] as? Bool == (end != "Delay Box:out"), "\(path)")
            }

            // link's round trip: one quantum for the loop, and the chain's 150 frames in it (no quantum more).
            let quantum = try #require(try pipeWire.quantum())
            let link = try pipeWire.live(["link", "--connect-out", "Delay Box:in", "--connect-in", "Liar Box:out",
                                          "--json", "--duration", "2"])
            #expect(link.exitStatus(timeoutSeconds: 20)?.status == 0, "\(link.stderr)")
            let latencies = link.reports.filter { $0["summary"] == nil }.compactMap { $0["latency_frames"] as? Double }
            #expect(latencies.count >= 4, "\(link.stdout)\n\(link.stderr)")
            for latency in latencies { #expect(abs(latency - Double(quantum + 150)) < 0.01, "at quantum \(quantum)") }
        }
    }
}
