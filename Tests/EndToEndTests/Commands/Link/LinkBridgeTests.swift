import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

/// A round trip between two private servers through zita-njbridge on
/// 127.0.0.1: on A, `tx` (zita-j2n) sends to B's `rx` (zita-n2j); on B, `rx`
/// is wired into B's `tx`, which sends back to A's `rx`. Two channels: the
/// first for `tonenode link`, the second for `jack_iodelay`, through the same
/// resamplers at the same time. Every process stopped by PID.
final class ZitaLoop {
    let a: PrivateJackServer
    let b: PrivateJackServer
    private var processes: [LiveCommand] = []
    /// B's zita-n2j (`rx` on B, the end behind a relay): its stdout, line by
    /// line (stdbuf), with `--info`'s once-a-second line of delay error,
    /// resampling ratio and queue fill, and its state changes ("Syncing...",
    /// "Receiving.", "Waiting for … seconds...").
    private(set) var receiverOnB: LiveCommand?
    /// A's zita-n2j, read the same way.
    private(set) var receiverOnA: LiveCommand?

    /// Waits (bounded) until both zita-n2j have locked (`ZitaLock`'s rule,
    /// looser than the cable tests' `waitForLock` on B alone); a recorded
    /// failure naming what each said when they have not.
    func waitForBothEndsToLock(timeoutSeconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) {
        let receivers = [("on A", receiverOnA), ("on B", receiverOnB)].compactMap { end, command in command.map { (end, $0) } }
        ZitaLock.waitForLock(receivers, timeoutSeconds: timeoutSeconds, sourceLocation: sourceLocation)
    }

    /// - Parameters:
    ///   - forwardPort: where B's `rx` listens (a relay may sit in front: `sendTo`).
    init(periodA: Int, periodB: Int, forwardPort: UInt16, returnPort: UInt16, sendTo: UInt16? = nil) throws {
        // Dummy servers without real-time scheduling keep time so badly on a
        // busy machine that zita-n2j's resampler swings by ±0.1 % (its --info
        // shows it) and no meter (jack_iodelay neither) can read the loop.
        a = try startServer(periodFrames: periodA, realtime: true)
        b = try startServer(periodFrames: periodB, realtime: true)
        // One client at a time: two libjack clients opening on two servers at
        // the same moment sometimes fail ("Cannot open … client").
        try start("zita-j2n", ["--jserv", a.name, "--jname", "tx", "--chan", "2", "--float",
                               "127.0.0.1", String(sendTo ?? forwardPort)], wait: "tx:in_1", on: a)
        try start("zita-j2n", ["--jserv", b.name, "--jname", "tx", "--chan", "2", "--float",
                               "127.0.0.1", String(returnPort)], wait: "tx:in_1", on: b)
        // zita-n2j's extra buffering (10 ms by default) must outlast the
        // sender's period and its own, or it runs dry every period (a
        // 1024-frame end did: `link` counted a dropout every 21 ms).
        let buffer = { (periods: Int) in String(10 + 2 * periods * 1000 / 48000) }
        try start("stdbuf", ["-oL", "/usr/bin/zita-n2j", "--info", "--jserv", b.name, "--jname", "rx", "--chan", "1,2",
                             "--buff", buffer(max(periodA, periodB)), "127.0.0.1", String(forwardPort)], wait: "rx:out_1", on: b)
        receiverOnB = processes.last
        try start("stdbuf", ["-oL", "/usr/bin/zita-n2j", "--info", "--jserv", a.name, "--jname", "rx", "--chan", "1,2",
                             "--buff", buffer(max(periodA, periodB)), "127.0.0.1", String(returnPort)], wait: "rx:out_1", on: a)
        receiverOnA = processes.last
        for channel in 1...2 { try jackConnect("rx:out_\(channel)", "tx:in_\(channel)", server: b.name) }
    }

    private func start(_ tool: String, _ arguments: [String], wait port: String, on server: PrivateJackServer) throws {
        processes.append(try LiveCommand(arguments, executable: "/usr/bin/\(tool)", stopGraceSeconds: 2))
        try waitForPort(port, server: server.name, timeoutSeconds: 10)
    }

    deinit {
        for process in processes.reversed() { process.stop() }
    }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/zita-n2j") }

    /// Two UDP ports for this process (bridges in parallel test runs must not meet).
    static func ports() -> (UInt16, UInt16) {
        let base = UInt16(20000 + Int(getpid()) % 20000 + Int.random(in: 0..<200) * 2)
        return (base, base + 1)
    }
}

/// The numbers of `tonenode link --json`'s per-reading lines.
func linkReadings(_ command: LiveCommand) -> [[String: Any]] {
    command.reports.filter { $0["summary"] == nil }
}

extension JackServerTests {
    @Suite("tonenode link across zita-njbridge (UDP on 127.0.0.1)", .enabled(if: ZitaLoop.isInstalled))
    struct LinkBridgeTests {
        /// Periods of A and B: different on the two ends; with
        /// `TONENODE_LINK_FIGURES=1` also 64/256/1024 on both, each measured
        /// for 30 s instead of 8 (the figures of docs/network/measured.md; a 64-frame
        /// end is fragile on a busy machine).
        static let isFiguresRun = ProcessInfo.processInfo.environment["TONENODE_LINK_FIGURES"] == "1"
        static let periodPairs = [(256, 64), (256, 1024), (1024, 256)] + (isFiguresRun ? [(64, 64), (256, 256), (1024, 1024)] : [])

        @Test("round trip and one way, different periods on the two ends; agrees with jack_iodelay on the same bridge",
              arguments: periodPairs)
        func roundTrip(periodA: Int, periodB: Int) throws {
            let (forward, back) = ZitaLoop.ports()
            let loop = try ZitaLoop(periodA: periodA, periodB: periodB, forwardPort: forward, returnPort: back)
            let ports = LoopPorts(serverA: loop.a.name, serverB: loop.b.name, intoBridge: ("tx:in_1", "tx:in_2"),
                                  outOfBridge: ("rx:out_1", "rx:out_2"), arrivingOnB: "rx:out_1")
            let label = "zita-njbridge A \(periodA) / B \(periodB) frames"
            loop.waitForBothEndsToLock()
            let measurement = try measureLoop(ports, label: label, seconds: Self.isFiguresRun ? 30 : 8)
            measurement.reportRoundTrip(label)

            // This machine's dummy clocks make the two resampler loops hunt:
            // the loop wanders by a fraction of a frame a second when calm and
            // by frames when the machine is busy (jack_iodelay sees the same).
            // So: most readings carry the probe, and the two meters, on two
            // channels of the same bridge over the same seconds, agree on the median.
            let sorted = measurement.latencies.sorted()
            #expect(measurement.readingCount >= 20 && sorted.count * 2 >= measurement.readingCount,
                    "readings \(measurement.readingCount), with the probe \(sorted.count)")
            let linkMedian = try #require(median(sorted))
            let reference = try #require(median(measurement.iodelayLatencies), "jack_iodelay printed no latency")
            #expect(linkMedian > Double(periodA) && linkMedian < 0.2 * 48000, "a plausible bridge latency")
            // Over the same seconds, link's median lies where jack_iodelay (the
            // independent meter, on the second channel) saw the loop: within
            // its lowest and highest figure, and 0.5 frame (the loop moves a
            // fraction of a frame a second when calm, and the two meters'
            // figures are taken at different moments).
            let iodelaySorted = measurement.iodelayLatencies.sorted()
            let (iodelayLow, iodelayHigh) = (iodelaySorted.first ?? .nan, iodelaySorted.last ?? .nan)
            #expect(linkMedian >= iodelayLow - 0.5 && linkMedian <= iodelayHigh + 0.5,
                    "link \(linkMedian) vs jack_iodelay \(reference) (jack_iodelay saw \(iodelayLow)…\(iodelayHigh))")
            // The probe's RMS level (−24.7 dBFS at −12 dBFS peak) comes back whole.
            #expect(abs((median(measurement.levelsDBFS) ?? 0) + 24.69) < 0.5, "\(measurement.levelsDBFS)")
            // Where the loop stands still, matched in time: within 0.01 frame.
            // Judged in the figures run (30 s, `TONENODE_LINK_FIGURES=1`, a
            // quiet machine), which fails when the loop never stood still for
            // 3 readings. Not claimed in the suite's 8 s runs: on a shared
            // 2-core machine the two resampler loops hunt and the loop held
            // still for fewer than 3 readings in each of 9 runs at load 10
            // (2026-11-28), so the claim could only go unjudged there.
            let agreement = measurement.stillAgreementFrames().sorted()
            report(String(format: "%@: link vs jack_iodelay where the loop stood still, matched in time: %d readings, "
                          + "median %.4f, max %.4f frames", label, agreement.count,
                          median(agreement) ?? .nan, agreement.last ?? .nan))
            if Self.isFiguresRun {
                #expect(agreement.count >= 3 && (median(agreement) ?? 1) < 0.01, "\(label): \(agreement)")
            }

            // One way on B: the drift between the two dummy clocks, with its resolution.
            measurement.reportOneWay(label)
            let summary = measurement.oneWay
            let drift = try #require(summary["drift_ppm"] as? Double, "no drift in \(summary)")
            let resolution = try #require(summary["drift_resolution_ppm_1s"] as? Double)
            // Two dummy clocks on one machine agree in the long run: the true
            // drift is 0, and what is read is the loop's own wander over the
            // seconds measured. jack_iodelay saw that wander on the same bridge:
            // a one-way slope of more than its whole spread (and 2 frames)
            // over a second of the run is no reading of this loop.
            // The estimator's accuracy is checked offline (LinkAnalyzerTests).
            // Judged in the figures run, where nothing may break the one-way
            // stretch before the probe's end (its last dropout). Not claimed
            // in the suite's runs: a stretch cut by dropouts on a loaded machine
            // leaves a fit over a second or less (−57 780 ± 8 165 ppm read
            // once, settled after 7.5 s of 9), and zita-njbridge on this
            // machine breaks it in most runs.
            let wanderPPM = ((iodelayHigh - iodelayLow) + 2) / 48000 * 1e6
            let broken = (summary["dropout_list"] as? [[String: Any]] ?? []).dropLast()
            report(String(format: "%@: drift %.1f ppm; jack_iodelay's wander bounds it at %.1f ppm; "
                          + "the one-way stretch broke %d time(s)", label, drift, wanderPPM, broken.count))
            #expect(drift.isFinite && resolution.isFinite && resolution > 0)
            if Self.isFiguresRun {
                #expect(broken.isEmpty && abs(drift) < wanderPPM,
                        "drift \(drift) ppm, the loop wandered \(iodelayHigh - iodelayLow) frames, \(broken.count) break(s)")
            }
            #expect(abs((summary["level_dbfs"] as? Double ?? 0) + 24.69) < 0.5)
        }
    }
}

extension JackServerTests {
    @Suite("tonenode link when the server goes away")
    struct LinkRestartTests {
        @Test("the server stops and comes back under its name: link reconnects and measures on; the summary spans both")
        func reconnects() throws {
            let name = "tn-link-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let first = try startServer(name: name)
            let plot = NSTemporaryDirectory() + "tn-link-\(getpid()).svg"
            defer { try? FileManager.default.removeItem(atPath: plot) }
            let meter = try LiveCommand(["link", "--json", "-s", name, "-n", "meter", "--connect-out", "meter:in",
                                         "--duration", "8", "--plot", plot])
            defer { meter.stop() }
            #expect(meter.waitUntil(timeoutSeconds: 10) { linkReadings($0).count >= 3 })
            first.stop()
            #expect(meter.waitUntil(timeoutSeconds: 5) { $0.stderr.contains("the JACK server shut the client down; waiting for it to come back") })
            let second = try startServer(name: name)
            defer { second.stop() }
            let status = meter.exitStatus(timeoutSeconds: 30)
            #expect(status?.status == 0, "stderr: \(meter.stderr)")
            let summary = try #require(meter.reports.last { $0["summary"] as? Bool == true })
            #expect(summary["sessions"] as? Int == 2)
            #expect((summary["readings_with_probe"] as? Int ?? 0) >= 8)
            #expect(abs((summary["latency_median_frames"] as? Double ?? 0) - 256) < 0.01)
            let svg = (try? String(contentsOfFile: plot, encoding: .utf8)) ?? ""
            #expect(svg.hasPrefix("<svg") || svg.contains("<svg"), "--plot wrote \(svg.prefix(80))")
        }
    }
}
