import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

/// Where the meters attach to a two-channel loop through a bridge between
/// servers A and B (B wires what arrives back into the bridge): the first
/// channel for `tonenode link`, the second for `jack_iodelay`, through the
/// same bridge at the same time.
struct LoopPorts {
    var serverA: String
    var serverB: String
    /// On A, into the bridge: link's channel, then jack_iodelay's.
    var intoBridge: (link: String, iodelay: String)
    /// On A, back out of the bridge, same order.
    var outOfBridge: (link: String, iodelay: String)
    /// On B: A's probe as it arrives there (`link --listen`).
    var arrivingOnB: String
}

/// What `measureLoop` saw over the same seconds: link's readings (round
/// trip on A), jack_iodelay's figures on the second channel, and the
/// one-way summary of `link --listen` on B.
struct LoopMeasurement {
    var readingCount: Int
    /// Round trips (frames) of the readings that carried the probe, in
    /// order, with the time (s) the test saw each line appear.
    var timedLatencies: [(time: Double, frames: Double)]
    var levelsDBFS: [Double]
    /// jack_iodelay's round trips (frames), in order, timed the same way.
    var timedIodelay: [(time: Double, frames: Double)]
    var oneWay: [String: Any]

    var latencies: [Double] { timedLatencies.map(\.frames) }
    var iodelayLatencies: [Double] { timedIodelay.map(\.frames) }

    /// Where the loop stands still for both meters (a link reading within
    /// 0.02 frame of both its neighbours, and the two jack_iodelay figures
    /// printed around the time link's line appeared, no more than 0.6 s
    /// apart, within 0.02 frame of each other), how far link's reading is
    /// from jack_iodelay's interpolated at that moment. A resampling bridge's
    /// latency wanders, so only moments matched in time compare.
    func stillAgreementFrames() -> [Double] {
        let readings = timedLatencies
        return readings.indices.dropFirst().dropLast().compactMap { index -> Double? in
            let reading = readings[index]
            guard abs(reading.frames - readings[index - 1].frames) < 0.02,
                  abs(reading.frames - readings[index + 1].frames) < 0.02,
                  let after = timedIodelay.firstIndex(where: { $0.time >= reading.time }), after > 0 else { return nil }
            let (a, b) = (timedIodelay[after - 1], timedIodelay[after])
            guard b.time - a.time <= 0.6, abs(b.frames - a.frames) < 0.02 else { return nil }
            let weight = b.time > a.time ? (reading.time - a.time) / (b.time - a.time) : 0
            return abs(a.frames + (b.frames - a.frames) * weight - reading.frames)
        }
    }

    /// One `[measured]` line: link's and jack_iodelay's median, min and max.
    func reportRoundTrip(_ label: String) {
        let link = latencies.sorted()
        let iodelay = iodelayLatencies.sorted()
        report(String(format: "%@: link median %.4f frames (%.3f ms), min %.4f, max %.4f (%d readings); "
                      + "jack_iodelay median %.4f, min %.4f, max %.4f (%d figures)", label,
                      median(link) ?? .nan, (median(link) ?? .nan) / 48, link.first ?? .nan, link.last ?? .nan,
                      link.count, median(iodelay) ?? .nan, iodelay.first ?? .nan, iodelay.last ?? .nan, iodelay.count))
    }

    /// One `[measured]` line from the one-way summary on B (the listener
    /// outlives the round-trip meter by a second: the probe's end is a dropout).
    func reportOneWay(_ label: String) {
        let dropoutTimes = (oneWay["dropout_list"] as? [[String: Any]] ?? []).compactMap { $0["time_s"] as? Double }
        report(String(format: "%@ one way A→B: drift %+.4f ppm ± %.4f, resolution %.5f ppm over 1 s of averaging, "
                      + "settled after %.1f s, %d dropouts at %@ s", label, oneWay["drift_ppm"] as? Double ?? .nan,
                      oneWay["drift_standard_error_ppm"] as? Double ?? .nan,
                      oneWay["drift_resolution_ppm_1s"] as? Double ?? .nan, oneWay["settled_after_s"] as? Double ?? -1,
                      oneWay["dropouts"] as? Int ?? -1, dropoutTimes.map { String(format: "%.1f", $0) }.joined(separator: ", ")))
    }
}

/// jack_iodelay's round trips in `text` ("  2048.000 frames  42.667 ms total
/// roundtrip latency"), in order; 0 (no signal yet) left out.
func iodelayFigures(_ text: some StringProtocol) -> [Double] {
    text.split(separator: "\n").compactMap(iodelayFigure)
}

func iodelayFigure(_ line: some StringProtocol) -> Double? {
    guard line.contains("total roundtrip latency"), let frames = Double(line.split(separator: " ").first ?? ""),
          frames > 0 else { return nil }
    return frames
}

/// The complete stdout lines of a running command, each with the time it
/// was first seen (the caller's clock), for commands that print no time of
/// their own. Polled; test thread only.
struct TimedLines {
    private(set) var lines: [(time: Double, text: String)] = []
    /// Characters of stdout already split into lines.
    private var consumed: Int

    init(skipping characters: Int = 0) { consumed = characters }

    mutating func poll(_ command: LiveCommand, now: Double) {
        let fresh = command.stdout.dropFirst(consumed)
        guard let end = fresh.lastIndex(of: "\n") else { return }
        for line in fresh[..<end].split(separator: "\n") { lines.append((now, String(line))) }
        consumed += fresh[...end].count
    }
}

/// Measures a loop with `tonenode link` (round trip on A for `seconds`,
/// one way on B at the same time) and `jack_iodelay` on the second channel.
/// Waits until jack_iodelay hears its signal come back (a bridge syncs a few
/// seconds after it starts). A busy machine can knock a loop off its feet for
/// seconds: up to `attempts` runs, the first where most readings carry the
/// probe. A failed expectation (at the caller) when the bridge never carries
/// jack_iodelay's signal or a meter exits badly.
func measureLoop(_ ports: LoopPorts, label: String, seconds: Int = 8, attempts: Int = 3,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> LoopMeasurement {
    let iodelay = try LiveCommand.jackTool("/usr/bin/stdbuf", ["-oL", "/usr/bin/jack_iodelay"], server: ports.serverA)
    defer { iodelay.stop() }
    try waitForPort("jack_delay:in", server: ports.serverA, sourceLocation: sourceLocation)
    try jackConnect("jack_delay:out", ports.intoBridge.iodelay, server: ports.serverA)
    try jackConnect(ports.outOfBridge.iodelay, "jack_delay:in", server: ports.serverA)
    let synced = iodelay.waitUntil(timeoutSeconds: 20) { !iodelayFigures($0.stdout).isEmpty }
    #expect(synced, "\(label): the bridge never carried jack_iodelay's signal: \(iodelay.stdout.suffix(300))",
            sourceLocation: sourceLocation)

    var measurement: LoopMeasurement
    var attempt = 0
    repeat {
        attempt += 1
        let iodelayStart = iodelay.stdout.count
        let listener = try LiveCommand(["link", "--listen", "--json", "-s", ports.serverB, "-n", "listener",
                                        "--connect-in", ports.arrivingOnB, "--duration", String(seconds + 1)])
        let meter = try LiveCommand(["link", "--json", "-s", ports.serverA, "-n", "meter",
                                     "--connect-out", ports.intoBridge.link, "--connect-in", ports.outOfBridge.link,
                                     "--duration", String(seconds), "--max-latency-ms", "400"])
        // Both tools' lines stamped as they appear (every 20 ms), so that
        // readings of a wandering loop can be matched in time.
        var meterLines = TimedLines()
        var iodelayLines = TimedLines(skipping: iodelayStart)
        let clock = Date()
        let deadline = clock.addingTimeInterval(Double(seconds) + 22)
        repeat {
            usleep(20_000)
            let now = Date().timeIntervalSince(clock)
            meterLines.poll(meter, now: now)
            iodelayLines.poll(iodelay, now: now)
        } while meter.isRunning && Date() < deadline
        let meterStatus = meter.exitStatus(timeoutSeconds: 1)
        let listenerStatus = listener.exitStatus(timeoutSeconds: 10)
        meterLines.poll(meter, now: Date().timeIntervalSince(clock))
        let readings = meterLines.lines.compactMap { line in parseReport(line.text).map { (line.time, $0) } }
            .filter { $0.1["summary"] == nil }
        measurement = LoopMeasurement(
            readingCount: readings.count,
            timedLatencies: readings.compactMap { time, reading in (reading["latency_frames"] as? Double).map { (time, $0) } },
            levelsDBFS: readings.compactMap { $0.1["level_dbfs"] as? Double },
            timedIodelay: iodelayLines.lines.compactMap { line in iodelayFigure(line.text).map { (line.time, $0) } },
            oneWay: listener.reports.last { $0["summary"] as? Bool == true } ?? [:])
        // A meter that ended badly is judged at once (no retry for it); a try
        // where fewer than half the readings carried the probe (the loop was
        // knocked off its feet) is tried again and not judged; a run whose
        // every try was spoiled fails, saying so.
        let ended = meterStatus?.status == 0 && listenerStatus?.status == 0
        let carried = measurement.latencies.count * 2 >= readings.count
        if !ended || carried {
            #expect(meterStatus?.status == 0, "\(label) link: \(meter.stderr)", sourceLocation: sourceLocation)
            #expect(listenerStatus?.status == 0, "\(label) link --listen: \(listener.stderr)", sourceLocation: sourceLocation)
            break
        }
        let spoiled = "\(measurement.latencies.count) of \(readings.count) readings carried the probe"
        if attempt == attempts {
            Issue.record("\(label): every one of \(attempts) tries was spoiled (the last: \(spoiled))",
                         sourceLocation: sourceLocation)
            break
        }
        report("\(label): \(spoiled); again")
    } while true
    return measurement
}
