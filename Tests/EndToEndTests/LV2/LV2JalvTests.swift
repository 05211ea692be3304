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

        /// `count` readings 0.25 s apart.
        static func readings(_ jalv: JalvHost, count: Int) throws -> [[String: Double]] {
            try (0..<count).map { index in
                if index > 0 { usleep(250_000) }
                return try #require(reading(jalv), "jalv did not answer `monitors`: \(jalv.command.stderr)")
            }
        }

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
            let readings = try Self.readings(tuner, count: 6)
            // A loaded machine's non-real-time jackd now and then skips a client's
            // cycle: a window with that gap reads off (SNR 8 dB, 0.8 Hz low, seen
            // at load 8). Most reads are of whole windows, and those are exact.
            let exact = readings.filter { reading in
                abs((reading["frequency"] ?? 0) - 440.5) < 0.001 && abs((reading["level"] ?? 0) + 12) < 0.01
                    && abs((reading["cents"] ?? 0) - 1.967) < 0.01
            }
            #expect(exact.count >= 4, "\(readings)")
            #expect(readings.allSatisfy { $0["valid"] == 1 && $0["note"] == 69 }, "\(readings)")
            let heard = node.reports.compactMap { $0["freq_hz"] as? Double }
            #expect(heard.suffix(20).contains { abs($0 - 440.5) < 0.001 }, "tonenode run read \(heard.suffix(20)): \(node.stderr)")
        }

        @Test("tonenode run plays 1234.5 Hz into the analyzer in pitch mode: jalv shows its frequency, D#6 and cents")
        func nodeIntoAnalyzer() throws {
            let server = try startServer(periodFrames: 256, sampleRateHz: 48000)
            let tuner = try JalvHost(name: "tuner", uri: LV2Bundle.analyzer, server: server.name,
                                     controls: ["mode": 1], firstOutput: "out",
                                     environment: ["LV2_PATH": LV2Bundle.staged.get()])
            defer { tuner.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "node", "--freq", "1234.5", "--no-metadata",
                                        "--connect-out", "tuner:in"])
            defer { node.stop() }
            try waitForPort("node:out", server: server.name)
            usleep(600_000)
            let readings = try Self.readings(tuner, count: 4)
            // 1234.5 Hz is D#6 (MIDI 87, 1244.51 Hz) − 13.97 cents (most reads: see above).
            let exact = readings.filter { reading in
                reading["valid"] == 1 && abs((reading["frequency"] ?? 0) - 1234.5) < 0.01
                    && reading["note"] == 87 && abs((reading["cents"] ?? 0) + 13.97) < 0.05
            }
            #expect(exact.count >= 3, "\(readings)")
        }
    }
}
