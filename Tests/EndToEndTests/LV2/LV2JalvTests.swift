import EndToEndSupport
import Foundation
import Testing

// The LV2 plugins in jalv on a private JACK server, in the `JackServerTests` suite.

extension JackServerTests {
    // Not under AddressSanitizer: jalv cannot load a sanitized library (LV2HostTests run it in an ASan host).
    @Suite("LV2 plugins in jalv",
           .enabled(if: LV2Bundle.missing == nil && JalvHost.missing([]) == nil && !LV2Bundle.isSanitized))
    struct LV2JalvTests {
        /// The analyzer's control outputs, read with jalv's `monitors` command.
        static func reading(_ jalv: JalvHost) -> [String: Double]? { jalv.monitors(last: "valid") }

        @Test("the generator plugin plays 440.5 Hz into the analyzer plugin and into tonenode run: all three agree")
        func generatorIntoAnalyzer() throws {
            let server = try startServer(periodFrames: 256, sampleRateHz: 48000)
            let path = ["LV2_PATH": try LV2Bundle.staged.get()]
            let tuner = try JalvHost(name: "tuner", uri: LV2Bundle.analyzer, server: server.name, firstOutput: "out",
                                     environment: path)
            defer { tuner.stop() }
            let generator = try JalvHost(name: "gen", uri: LV2Bundle.generator, server: server.name,
                                         controls: ["frequency": 440.5, "level": -12], firstOutput: "out", environment: path)
            defer { generator.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "node", "--json", "--mute", "--no-metadata",
                                        "--connect-in", "gen:out"])
            defer { node.stop() }
            let connect = try runCommand(["gen:out", "tuner:in"], executable: "/usr/bin/jack_connect",
                                         environment: ["JACK_DEFAULT_SERVER": server.name], timeoutSeconds: 10)
            #expect(connect.status == 0, "jack_connect: \(connect.stderr)")
            // A window (85 ms) and the worker's turn after the tone reached the analyzer.
            usleep(500_000)
            var readings: [[String: Double]] = []
            for _ in 0..<4 {
                readings.append(try #require(Self.reading(tuner), "jalv did not answer `monitors`: \(tuner.command.stderr)"))
                usleep(250_000)
            }
            for reading in readings {
                #expect(reading["valid"] == 1, "\(reading)")
                #expect(abs((reading["frequency"] ?? 0) - 440.5) < 0.001, "\(reading)")
                #expect(abs((reading["level"] ?? 0) + 12) < 0.01, "\(reading)")
                #expect(reading["note"] == 69 && abs((reading["cents"] ?? 0) - 1.967) < 0.01, "\(reading)")
            }
            let heard = node.reports.compactMap { $0["freq_hz"] as? Double }
            let last = try #require(heard.last, "tonenode run read nothing: \(node.stderr)")
            #expect(abs(last - (readings.last?["frequency"] ?? 0)) < 0.001, "tonenode run \(last) Hz")
        }

        @Test("tonenode run plays 1234.5 Hz into the analyzer in pitch mode: jalv shows its frequency, D#6 and cents")
        func nodeIntoAnalyzer() throws {
            let server = try startServer(periodFrames: 256, sampleRateHz: 48000)
            let tuner = try JalvHost(name: "tuner", uri: LV2Bundle.analyzer, server: server.name,
                                     controls: ["mode": 1, "low": 30, "high": 2000], firstOutput: "out",
                                     environment: ["LV2_PATH": LV2Bundle.staged.get()])
            defer { tuner.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "node", "--freq", "1234.5", "--no-metadata",
                                        "--connect-out", "tuner:in"])
            defer { node.stop() }
            try waitForPort("node:out", server: server.name)
            usleep(600_000)
            let reading = try #require(Self.reading(tuner), "jalv did not answer `monitors`: \(tuner.command.stderr)")
            #expect(reading["valid"] == 1 && abs((reading["frequency"] ?? 0) - 1234.5) < 0.01, "\(reading)")
            // 1234.5 Hz is D#6 (MIDI 87, 1244.51 Hz) − 13.97 cents.
            #expect(reading["note"] == 87 && abs((reading["cents"] ?? 0) + 13.97) < 0.05, "\(reading)")
        }
    }
}
