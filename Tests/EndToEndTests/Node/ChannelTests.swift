import EndToEndSupport
import Foundation
import Testing
import ToneCore
import ToneEngine
import ToneJack

extension JackServerTests {
    @Suite("Stereo node (--channels 2)")
    struct ChannelTests {
        @Test("ports in_1, in_2, out_1, out_2; each input analysed on its own; both outputs carry the same tone")
        func stereo() throws {
            let server = try startServer()
            defer { server.stop() }
            let simple = try LiveCommand.jackTool("/usr/bin/jack_simple_client", server: server.name)
            defer { _ = simple }
            try waitForPort("jack_simple_client:output1", server: server.name)
            // The first --connect-out goes from out_1: here into in_2.
            let live = try LiveCommand(["run", "-s", server.name, "-n", "st", "--channels", "2", "--json", "--hop", "4096",
                                        "--connect-out", "st:in_2"])
            try waitForPort("st:in_2", server: server.name)
            let wired = try runCommand(["jack_simple_client:output1", "st:in_1"], executable: "/usr/bin/jack_connect",
                                       environment: ["JACK_DEFAULT_SERVER": server.name])
            #expect(wired.status == 0)
            let ports = try runCommand([], executable: "/usr/bin/jack_lsp", environment: ["JACK_DEFAULT_SERVER": server.name])
                .stdoutLines.filter { $0.hasPrefix("st:") }
            #expect(ports == ["st:in_1", "st:in_2", "st:out_1", "st:out_2", "st:midi_in"])
            func channelReads(_ channel: Int, _ hz: Double, dbfs: Double, after time: Double) -> Bool {
                live.waitUntil(timeoutSeconds: 10) { live in
                    live.reports.filter { report in
                        (report["channel"] as? Int) == channel && (report["time_s"] as? Double ?? 0) > time
                            && abs((report["freq_hz"] as? Double ?? 0) - hz) < 0.001
                            && abs((report["level_dbfs"] as? Double ?? 0) - dbfs) < 0.01
                    }.count >= 2
                }
            }
            #expect(channelReads(1, 240, dbfs: 20 * log10(0.2), after: 0.5), "stderr: \(live.stderr)")
            #expect(channelReads(2, 1000, dbfs: -18, after: 0.5))
            // out_2 joins out_1 on in_2: the same tone in phase, twice the amplitude (+6.02 dB).
            let mark = lastReportTime(live)
            _ = try runCommand(["st:out_2", "st:in_2"], executable: "/usr/bin/jack_connect",
                               environment: ["JACK_DEFAULT_SERVER": server.name])
            #expect(channelReads(2, 1000, dbfs: -18 + 20 * log10(2), after: mark + 0.2), "stdout tail: \(live.stdout.suffix(500))")
        }

        @Test("--channels outside 1…8 is one line and status 64", arguments: ["0", "9", "-1", "two"])
        func badChannels(value: String) throws {
            let result = try runCommand(["run", "-s", "no-such-server", "--channels", value])
            #expect(result.status == 64)
            #expect(result.stderrLines.count == 1, "stderr: \(result.stderr)")
        }
    }
}
