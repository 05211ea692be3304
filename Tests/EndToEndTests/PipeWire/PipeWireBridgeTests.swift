import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

/// A mixed studio on one machine: a PipeWire graph (A, its clients under
/// pw-jack) and a private real-time jackd2 (B, dummy, 256 frames) joined by
/// zita-njbridge on 127.0.0.1, one pair each way, both on two channels. B
/// loops channel 1 back, A loops channel 2. Every process stopped by PID,
/// the bridges before the servers.
private final class MixedStudio {
    let pipeWire: PrivatePipeWire
    let jackd: PrivateJackServer
    private var bridges: [LiveCommand] = []
    /// The two zita-n2j (on B, then on A).
    private var receivers: [LiveCommand] = []

    init() throws {
        pipeWire = try PrivatePipeWire()
        jackd = try startServer(periodFrames: 256, realtime: true)
        let (forward, back) = ZitaLoop.ports()
        // zita-n2j's buffering must outlast the sender's period and its own:
        // 10 ms and two of PipeWire's 1024-frame quanta.
        let buffer = String(10 + 2 * 1024 * 1000 / 48000)
        // One client at a time (two opening at once can fail).
        // The receivers print their state and `--info` lines, line by line (ZitaLock).
        let receiver = ["--info", "--jname", "rx", "--chan", "1,2", "--buff", buffer, "127.0.0.1"]
        try startOnB("stdbuf", ["-oL", "/usr/bin/zita-n2j", "--jserv", jackd.name] + receiver + [String(forward)], wait: "rx:out_1")
        receivers.append(bridges.last!)
        try startOnA("zita-j2n", ["--jname", "tx", "--chan", "2", "--float", "127.0.0.1", String(forward)], wait: "tx:in_1")
        try startOnA("stdbuf", ["-oL", "/usr/bin/zita-n2j"] + receiver + [String(back)], wait: "rx:out_1")
        receivers.append(bridges.last!)
        try startOnB("zita-j2n", ["--jserv", jackd.name, "--jname", "tx", "--chan", "2", "--float", "127.0.0.1", String(back)], wait: "tx:in_1")
        try jackConnect("rx:out_1", "tx:in_1", server: jackd.name)
        let loopOnA = try pipeWire.run(["rx:out_2", "tx:in_2"], executable: "jack_connect", timeoutSeconds: 10)
        if loopOnA.status != 0 { Issue.record("jack_connect on PipeWire: \(loopOnA.stderr)") }
    }

    private func startOnB(_ tool: String, _ arguments: [String], wait port: String) throws {
        bridges.append(try LiveCommand(arguments, executable: "/usr/bin/\(tool)", stopGraceSeconds: 2))
        try waitForPort(port, server: jackd.name, timeoutSeconds: 10)
    }

    private func startOnA(_ tool: String, _ arguments: [String], wait port: String) throws {
        bridges.append(try pipeWire.live(arguments, executable: tool))
        if !pipeWire.waitForPort(port) { Issue.record("no \(port) on PipeWire: \(bridges.last?.stderr ?? "")") }
    }

    /// Waits (bounded) until both zita-n2j have locked (`ZitaLock`); a
    /// recorded failure naming what each said when they have not.
    func waitForLock(timeoutSeconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) {
        ZitaLock.waitForLock(Array(zip(["on jackd2", "on PipeWire"], receivers)), timeoutSeconds: timeoutSeconds,
                             sourceLocation: sourceLocation)
    }

    func stop() {
        for bridge in bridges.reversed() { bridge.stop() }
        bridges = []
        receivers = []
        jackd.stop()
        pipeWire.stop()
    }

    deinit { stop() }
}

/// A summary's dropouts as "N (at T s for D ms, …)".
private func dropouts(_ summary: [String: Any]) -> String {
    let list = (summary["dropout_list"] as? [[String: Any]] ?? []).map {
        String(format: "%.1f s for %.1f ms", $0["time_s"] as? Double ?? .nan, $0["duration_ms"] as? Double ?? .nan)
    }
    return "\(list.count)" + (list.isEmpty ? "" : " (at " + list.joined(separator: ", ") + ")")
}

private func summary(_ link: LiveCommand) -> [String: Any] {
    link.reports.last { $0["summary"] as? Bool == true } ?? [:]
}

extension JackServerTests {
    @Suite("A mixed studio: PipeWire and jackd2 joined by zita-njbridge", .enabled(if: ZitaLoop.isInstalled))
    struct PipeWireBridgeTests {
        /// 8 s of readings; `TONENODE_PIPEWIRE_FIGURES=1`: 30 s (the figures of docs/network/measured.md).
        static let seconds = ProcessInfo.processInfo.environment["TONENODE_PIPEWIRE_FIGURES"] == "1" ? 30.0 : 8.0

        @Test("link both ways at once: the round trip from the PipeWire end and from the jackd2 end, each end's drift with --listen")
        func bothWays() throws {
            let studio = try MixedStudio()
            defer { studio.stop() }
            // zita-n2j syncs for about 4 s after it starts receiving, and creeps on for a few more.
            studio.waitForLock()
            let duration = String(Self.seconds)
            let fromPipeWire = try studio.pipeWire.live(["link", "-n", "near", "--connect-out", "tx:in_1", "--connect-in", "rx:out_1",
                                                         "--json", "--duration", duration])
            let fromJackd = try LiveCommand(["link", "-s", studio.jackd.name, "-n", "far", "--connect-out", "tx:in_2",
                                             "--connect-in", "rx:out_2", "--json", "--duration", duration])
            // Each end reads the other's probe one way (they stop last, so their last dropout is the probe ending).
            usleep(300_000)
            let listenOnJackd = try LiveCommand(["link", "-s", studio.jackd.name, "--listen", "-n", "ear", "--connect-in", "rx:out_1",
                                                 "--json", "--duration", duration])
            let listenOnPipeWire = try studio.pipeWire.live(["link", "--listen", "-n", "ear", "--connect-in", "rx:out_2",
                                                             "--json", "--duration", duration])
            let links = [("PipeWire → jackd2 → PipeWire", fromPipeWire), ("jackd2 → PipeWire → jackd2", fromJackd),
                         ("PipeWire's probe on jackd2", listenOnJackd), ("jackd2's probe on PipeWire", listenOnPipeWire)]
            for (label, link) in links {
                #expect(link.exitStatus(timeoutSeconds: Self.seconds + 20)?.status == 0, "\(label): \(link.stderr)")
            }
            var medians: [Double] = []
            var spread = 2.0
            for (label, link) in links.prefix(2) {
                let result = summary(link)
                let median = try #require(result["latency_median_frames"] as? Double, "\(label): \(link.stdout)\n\(link.stderr)")
                medians.append(median)
                let (low, high) = (result["latency_min_frames"] as? Double ?? .nan, result["latency_max_frames"] as? Double ?? .nan)
                spread = max(spread, high - low)
                report(String(format: "mixed studio, round trip %@: median %.3f frames (%.3f ms), jitter %.4f ms, "
                              + "%d of %d readings with the probe, dropouts %@, gain %+.3f dB", label, median, median / 48,
                              result["jitter_ms"] as? Double ?? .nan, result["readings_with_probe"] as? Int ?? 0,
                              result["readings"] as? Int ?? 0, dropouts(result), result["gain_db"] as? Double ?? .nan))
                // A loaded machine can break the bridge for a moment (both ends then see it): most readings carry the probe.
                let (withProbe, readings) = (result["readings_with_probe"] as? Int ?? 0, result["readings"] as? Int ?? 0)
                #expect(readings >= Int(Self.seconds * 2) && withProbe * 2 >= readings, "\(label): \(result)")
                // Two zita-n2j buffers of 52 ms and the periods around them.
                #expect(median > 4000 && median < 6000, "\(label): \(median) frames")
            }
            // Both ends measure the same two bridges at the same time, on two channels: the
            // same loop, which the two resamplers move by a few frames while they settle.
            #expect(abs(medians[0] - medians[1]) < spread, "round trips \(medians), spread \(spread) frames")
            // One way: each listener reads the other server's clock, so the two drifts are opposite.
            // They may differ from 0 for real: jackd2's dummy driver keeps time by sleeping after each
            // cycle (one 30 s run on a loaded machine read −100.42 and +99.10 ppm, another −0.43 and −0.68).
            var drifts: [(ppm: Double, error: Double)] = []
            for (label, link) in links.suffix(2) {
                let result = summary(link)
                let drift = try #require(result["drift_ppm"] as? Double, "\(label): \(link.stdout)\n\(link.stderr)")
                let error = result["drift_standard_error_ppm"] as? Double ?? .nan
                drifts.append((drift, error))
                report(String(format: "mixed studio, %@: drift %+.2f ± %.2f ppm (resolution %.1f ppm at 1 s), settled after %.1f s, "
                              + "dropouts %@", label, drift, error, result["drift_resolution_ppm_1s"] as? Double ?? .nan,
                              result["settled_after_s"] as? Double ?? .nan, dropouts(result)))
                // Over 8 s the resamplers are still settling (hundreds of ppm read once): a sanity bound only.
                #expect(drift.isFinite && abs(drift) < 1000, "\(label): \(result)")
                #expect(abs((result["level_dbfs"] as? Double ?? 0) + 24.69) < 0.5, "\(label): \(result)")
            }
            if Self.seconds >= 30 {
                #expect(abs(drifts[0].ppm + drifts[1].ppm) < 3 * (drifts[0].error + drifts[1].error) + 5, "\(drifts)")
            }
        }
    }
}
