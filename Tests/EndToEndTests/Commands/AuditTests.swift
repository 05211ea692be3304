import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests {
    @Suite("tonenode audit: measured against reported latency")
    struct AuditTests {
        static func audit(_ server: String, _ path: [String]) throws -> (status: Int32, result: [String: Any]?) {
            let result = try runCommand(["audit", "--json", "-s", server, "-n", "auditor"] + path, timeoutSeconds: 60)
            return (result.status, result.stdoutLines.last.flatMap(parseReport))
        }

        @Test("jack_thru adds nothing and reports nothing: ok; a client that delays 64.37 frames and reports 0 is flagged")
        func misreport() throws {
            let server = try startServer(periodFrames: 256)
            let thru = try LiveCommand.jackTool("/usr/bin/jack_thru", server: server.name)
            defer { thru.stop() }
            try waitForPort("jack_thru:output_1", server: server.name)
            let honest = try Self.audit(server.name, ["--connect-out", "jack_thru:input_1", "--connect-in", "jack_thru:output_1"])
            #expect(honest.status == 0)
            #expect(abs(honest.result?["difference_frames"] as? Double ?? 99) < 0.01)
            #expect(honest.result?["misreported"] as? Bool == false)

            // The peer's FIR delays by 64.37 frames; it sets no latency, so JACK reports 0 for it.
            let delay = FractionalDelay(fraction: 0.37, gain: 0.5)
            let peer = try JackPeer(name: "liar", server: server.name, audioIn: ["in"], audioOut: ["out"],
                                    process: delay.process)
            defer { peer.close() }
            let liar = try Self.audit(server.name, ["--connect-out", "liar:in", "--connect-in", "liar:out"])
            report(String(format: "audit: liar measured %.4f frames, reported %d, difference %.4f",
                          liar.result?["measured_frames"] as? Double ?? -1, liar.result?["reported_max_frames"] as? Int ?? -1,
                          liar.result?["difference_frames"] as? Double ?? -1))
            #expect(liar.status == 2)
            #expect(liar.result?["misreported"] as? Bool == true)
            #expect(abs((liar.result?["difference_frames"] as? Double ?? 0) - delay.delayFrames) < 0.01)
        }

        @Test("audit needs a path")
        func needsPath() throws {
            let result = try runCommand(["audit"], environment: ["JACK_DEFAULT_SERVER": "tn-none-\(getpid())"])
            #expect(result.status == 64 && result.stderrLines.count == 1 && result.stderr.contains("--connect-out"))
        }
    }
}
