import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

// `measure --what …` and `--channels` against analytic JACK clients
// (`Polynomial`, `ChannelLeak`), in the `MeasureTests` suite.

extension JackServerTests.MeasureTests {
    @Test("measure --what harmonics through a polynomial JACK client: H2, H3, H5 within 0.1 dB (down to −120 dB) and their phases")
    func harmonicsThroughJACK() throws {
        let server = try startServer(periodFrames: 256)
        let a = pow(10, -12.0 / 20)
        // H2 −40 dB, H3 −80 dB, H5 −120 dB against the fundamental at −12 dBFS (see HarmonicAnalyzerTests).
        let c2 = 2 * 0.01 / a, c3 = -4 * 1e-4 / (a * a), c5 = 16 * 1e-6 / pow(a, 4)
        let shaper = Polynomial([1, c2, c3, 0, c5])
        let peer = try JackPeer(name: "shaper", server: server.name, audioIn: ["in"], audioOut: ["out"],
                                process: shaper.process)
        let plotPath = NSTemporaryDirectory() + "tn-measure-shaper-\(getpid()).svg"
        defer {
            if ProcessInfo.processInfo.environment["TN_KEEP_PLOTS"] == nil {
                for suffix in ["", "-harmonics", "-levels", "-noise", "-imd"] {
                    try? FileManager.default.removeItem(atPath: PlotOptionPaths.sibling(plotPath, suffix))
                }
            } else {
                report("plots kept: \(plotPath) and its -harmonics, -levels, -noise, -imd siblings")
            }
        }
        var summary: [String: Any]?
        for _ in 1...3 {
            let result = try runCommand(["measure", "-s", server.name, "-n", "meter", "--json", "--what", "all",
                                         "--plot", plotPath,
                                         "--connect-out", "shaper:in", "--connect-in", "shaper:out"], timeoutSeconds: 60)
            #expect(result.status == 0, "measure failed: \(result.stderr)")
            summary = result.stdoutLines.last.flatMap(parseReport)
            if (summary?["xruns"] as? Int ?? 0) == 0 { break }
        }
        let harmonics = try #require(summary?["harmonics"] as? [String: Any])
        let orders = try #require(harmonics["orders"] as? [[String: Any]])
        let fundamental = 1 + 0.75 * c3 * a * a + 10.0 / 16 * c5 * pow(a, 4)
        let expected: [Int: (db: Double, degrees: Double)] = [
            2: (20 * log10(c2 * a / 2 / fundamental), -90),
            3: (20 * log10((c3 * a * a / 4 + 5.0 / 16 * c5 * pow(a, 4)).magnitude / fundamental), 0),
            5: (20 * log10(c5 * pow(a, 4) / 16 / fundamental), 0),
        ]
        // Each order the polynomial makes is required: a missing H2, H3 or H5 fails here.
        for (k, truth) in expected.sorted(by: { $0.key < $1.key }) {
            let order = try #require(orders.first { $0["order"] as? Int == k }, "H\(k) missing from the report")
            let points = try #require(order["points"] as? [[String: Double]], "H\(k) has no points")
            #expect(points.count > 20)
            let worstDB = points.map { abs(($0["db"] ?? 0) - truth.db) }.max() ?? .infinity
            let worstDegrees = points.map { point -> Double in
                var d = (point["degrees"] ?? 0) - truth.degrees
                d -= 360 * (d / 360).rounded()
                return abs(d)
            }.max() ?? .infinity
            report(String(format: "through JACK: H%d expected %.2f dB, worst deviation %.4f dB, %.3f°", k, truth.db, worstDB, worstDegrees))
            #expect(worstDB < 0.1, "H\(k) worst deviation \(worstDB) dB")
            #expect(worstDegrees < 1, "H\(k) worst phase deviation \(worstDegrees)°")
        }
        let linear = harmonics["linear"] as? [[String: Double]] ?? []
        // Group delay: one period, from 40 Hz (the x² term's DC step at the sweep's start lands
        // below) to 2 kHz: above, the harmonics the polynomial folds back from beyond Nyquist (a
        // real property of a digital non-linearity; H3 of 8…16 kHz lands on 0…24 kHz, smeared in
        // time) ripple the linear response: ±0.04 dB, ±0.02 ms at 2…8 kHz, ±1 ms above 9 kHz.
        let delays = linear.filter { ($0["hz"] ?? 0) >= 40 && ($0["hz"] ?? 0) <= 2000 }.map { abs(($0["group_delay_ms"] ?? 0) - 256 / 48.0) }
        report(String(format: "through JACK: group delay within %.5f ms of one period from 40 Hz to 2 kHz", delays.max() ?? .infinity))
        #expect(delays.count > 60 && delays.allSatisfy { $0 < 0.01 })
        // Level sweep: H2 = c2·A/2 is exactly 1 % at −12 dBFS (H3, H5 and the compression move it by < 0.01 dB).
        let levels = try #require(summary?["levels"] as? [String: Any])
        let onePercent = try #require(levels["one_percent_level_dbfs"] as? Double)
        report(String(format: "through JACK: THD+N crosses 1 %% at %.3f dBFS (expected -12.0)", onePercent))
        #expect(abs(onePercent + 12) < 0.1)
        let points = levels["points"] as? [[String: Double]] ?? []
        #expect(points.count == 21)
        // Noise: the polynomial maps silence to silence; the −60 dBFS tone's float rounding bounds the dynamic range.
        let noise = try #require(summary?["noise"] as? [String: Any])
        #expect((noise["dynamic_range_db"] as? Double ?? 0) > 140)
        #expect((noise["hum"] as? [Any])?.isEmpty == true)
        // IMD: present, and the x² term's difference tone d2 is c2·A²/(2A) = c2·A/2 (−46 dB at 0.5·peak): within 0.1 dB.
        let imd = try #require(summary?["imd"] as? [String: Any])
        let d2 = try #require(imd["ccif_d2_db"] as? Double)
        let expectedD2 = 20 * log10(c2 * 0.5 * a / 2)
        report(String(format: "through JACK: CCIF d2 %.3f dB (x² alone: %.3f), SMPTE %.2f dB, DR %.1f dB", d2, expectedD2,
                      imd["smpte_db"] as? Double ?? .nan, noise["dynamic_range_db"] as? Double ?? .nan))
        #expect(abs(d2 - expectedD2) < 0.1)
        for (suffix, label) in [("", "gain (dB)"), ("-harmonics", "level (dB re fundamental)"), ("-levels", "level (dBFS peak)"),
                                ("-noise", "frequency (Hz)"), ("-imd", "dB re the 7 kHz tone")] {
            let svg = try String(contentsOfFile: PlotOptionPaths.sibling(plotPath, suffix), encoding: .utf8)
            let parsed = try #require(SVGDocumentCheck(svg), "\(suffix): not well-formed XML")
            #expect(parsed.labels.contains(label), "\(suffix): no axis '\(label)'")
        }
        withExtendedLifetime(peer) {}
    }
}

/// `x.svg` → `x-harmonics.svg`, as `measure --plot` names its second and third pictures.
enum PlotOptionPaths {
    static func sibling(_ path: String, _ suffix: String) -> String { String(path.dropLast(4)) + suffix + ".svg" }
}

extension JackServerTests.MeasureTests {
    @Test("measure --channels 2 --what crosstalk through a client with known leaks: within 0.5 dB at −60 and −100 dB")
    func crosstalkThroughJACK() throws {
        let server = try startServer(periodFrames: 256)
        let leak = ChannelLeak([[0, 1e-3], [1e-5, 0]])   // in 1 gets −60 dB of out 2; in 2 gets −100 dB of out 1
        let peer = try JackPeer(name: "leaky", server: server.name, audioIn: ["in_1", "in_2"], audioOut: ["out_1", "out_2"],
                                process: leak.process)
        var summary: [String: Any]?
        for _ in 1...3 {
            let result = try runCommand(["measure", "-s", server.name, "-n", "meter", "--json", "--channels", "2",
                                         "--what", "crosstalk", "--sweep-seconds", "1",
                                         "--connect-out", "leaky:in_1", "--connect-out", "leaky:in_2",
                                         "--connect-in", "leaky:out_1", "--connect-in", "leaky:out_2"], timeoutSeconds: 60)
            #expect(result.status == 0, "measure failed: \(result.stderr)")
            summary = result.stdoutLines.last.flatMap(parseReport)
            if (summary?["xruns"] as? Int ?? 0) == 0 { break }
        }
        let crosstalk = try #require(summary?["crosstalk"] as? [String: Any])
        let paths = try #require(crosstalk["paths"] as? [[String: Any]])
        #expect(paths.count == 2)
        for path in paths {
            let driven = path["driven"] as? Int ?? 0, measured = path["measured"] as? Int ?? 0
            let expected = driven == 2 && measured == 1 ? -60.0 : -100.0
            let points = path["points"] as? [[String: Double]] ?? []
            let worst = points.map { abs(($0["db"] ?? 0) - expected) }.max() ?? .infinity
            report(String(format: "through JACK: crosstalk out %d → in %d expected %.0f dB, worst deviation %.4f dB over %d points",
                          driven, measured, expected, worst, points.count))
            #expect(points.count > 20 && worst < 0.5)
        }
        withExtendedLifetime(peer) {}
    }
}
