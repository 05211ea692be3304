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

        static let limiter = "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"
        static var jalvInstalled: Bool {
            FileManager.default.isExecutableFile(atPath: "/usr/bin/jalv")
                && FileManager.default.fileExists(atPath: "/usr/lib/lv2/fast_lookahead_limiter-swh.lv2")
        }

        @Test("jalv hosting a look-ahead limiter (swh-lv2): measured = the plugin's latency; what JACK reports is judged",
              .enabled(if: jalvInstalled))
        func jalvLimiter() throws {
            let server = try startServer(periodFrames: 256)
            // jalv's console reads commands from stdin; a pipe kept open keeps it running.
            let jalv = try LiveCommand(["-n", "lim", Self.limiter], executable: "/usr/bin/jalv",
                                       environment: ["JACK_DEFAULT_SERVER": server.name], input: .pipe)
            defer { jalv.stop() }
            try waitForPort("lim:out_1", server: server.name)
            let (status, result) = try Self.audit(server.name, ["--connect-out", "lim:in_1", "--connect-in", "lim:out_1"])
            let measured = try #require(result?["measured_frames"] as? Double)
            let reported = result?["reported_max_frames"] as? Int ?? -1
            report(String(format: "audit: jalv + fastLookaheadLimiter measured %.4f frames, reported %d", measured, reported))
            // The plugin's latency port says 240 frames at 48 kHz (jalv sets it on the ports).
            #expect(abs(measured - 240) < 0.01)
            // jalv 1.6.6 adds it to its input's capture latency and its output's
            // playback latency, not to what it passes on: downstream reads 0.
            let misreported = abs(Double(reported) - measured) > 1
            #expect(result?["misreported"] as? Bool == misreported)
            #expect(status == (misreported ? 2 : 0))
        }

        @Test("audit needs a path")
        func needsPath() throws {
            let result = try runCommand(["audit"], environment: ["JACK_DEFAULT_SERVER": "tn-none-\(getpid())"])
            #expect(result.status == 64 && result.stderrLines.count == 1 && result.stderr.contains("--connect-out"))
        }
    }
}
