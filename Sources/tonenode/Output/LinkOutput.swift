import Foundation
import ToneCore
import ToneDSP
import ToneEngine
import TonePlot
import ToneCommandLine

/// `tonenode link`'s output: a line per reading (human or JSON), then the
/// summary of every session (one per server connection). Main thread only.
struct LinkOutput {
    let json: Bool
    let oneWay: Bool
    /// Seconds from the start of the run to the start of the current session.
    var offsetSeconds = 0.0
    private(set) var sessions: [(offsetSeconds: Double, session: LinkMeter.Session)] = []

    init(json: Bool, oneWay: Bool) {
        self.json = json
        self.oneWay = oneWay
    }

    mutating func finish(_ session: LinkMeter.Session) {
        sessions.append((offsetSeconds, session))
    }

    /// - Parameter spansPeriodChange: its period of probe may span a change of
    ///   the server's period: marked (`"period_change":true`, `ACROSS A PERIOD CHANGE`).
    func reading(_ reading: LinkReading, analyzer: LinkAnalyzer, offsetSeconds: Double, spansPeriodChange: Bool = false) {
        let rate = analyzer.estimator.probe.sampleRateHz
        let time = offsetSeconds + reading.timeSeconds
        let dropouts = analyzer.dropouts.count + (analyzer.openDropoutStartSeconds == nil ? 0 : 1)
        if json {
            var line = JSONLine()
            line.add("time_s", time, .decimals(3))
            line.add("probe", reading.hasProbe)
            line.add(oneWay ? "delay_frames" : "latency_frames", reading.hasProbe ? reading.latencyFrames : nil, .decimals(4))
            line.add(oneWay ? "delay_ms" : "latency_ms", reading.hasProbe ? reading.latencyFrames / rate * 1000 : nil, .decimals(4))
            line.add("gain_db", reading.hasProbe ? reading.gainDB : nil, .decimals(3))
            line.add("level_dbfs", reading.levelDBFS, .decimals(2))
            line.add("residual_db", reading.residualDB, .decimals(1))
            line.add("dropouts", dropouts)
            if let change = analyzer.changes.last, change.timeSeconds == reading.timeSeconds {
                line.add("latency_change_frames", change.toFrames - change.fromFrames, .decimals(4))
            }
            if spansPeriodChange { line.add("period_change", true) }
            Console.out(line.description)
        } else if reading.hasProbe {
            // One way, the two servers' frame counters share no origin: only the delay's changes are real.
            var text = String(format: "%8.2f s  %@ %10.3f frames (%7.3f ms)  gain %+6.2f dB  level %6.1f dBFS  dropouts %d",
                              time, oneWay ? "relative delay" : "latency", reading.latencyFrames,
                              reading.latencyFrames / rate * 1000, reading.gainDB, reading.levelDBFS, dropouts)
            if let change = analyzer.changes.last, change.timeSeconds == reading.timeSeconds {
                text += String(format: "  CHANGE %+.3f frames", change.toFrames - change.fromFrames)
            }
            if spansPeriodChange { text += "  ACROSS A PERIOD CHANGE" }
            Console.out(text)
        } else {
            Console.out(String(format: "%8.2f s  no probe (level %.1f dBFS)  dropouts %d", time, reading.levelDBFS, dropouts))
        }
    }

    /// The sessions the summary pools: those at the last session's rate.
    /// Frames at another rate are another length of time (the sample rate
    /// changed under `link`, or a server came back at another one), so
    /// readings from before are left out, never mixed in.
    var pooledSessions: [(offsetSeconds: Double, session: LinkMeter.Session)] {
        guard let rate = sessions.last?.session.sampleRateHz else { return [] }
        return sessions.filter { $0.session.sampleRateHz == rate }
    }

    /// The summary of the whole run (at its last rate: `pooledSessions`) and the limits it broke.
    func summary(limits: LinkLimits) -> (text: String, violations: [String]) {
        let sessions = pooledSessions
        let rate = Double(sessions.first?.session.sampleRateHz ?? 48000)
        let readings = sessions.flatMap { entry in
            entry.session.analyzer.readings.map { reading -> LinkReading in
                var shifted = reading
                shifted.timeSeconds += entry.offsetSeconds
                return shifted
            }
        }
        let dropouts = sessions.flatMap { entry in
            entry.session.analyzer.dropouts.map { LinkAnalyzer.Dropout(startSeconds: $0.startSeconds + entry.offsetSeconds,
                                                                        durationSeconds: $0.durationSeconds) }
        }
        let changes = sessions.flatMap { entry in
            entry.session.analyzer.changes.map {
                LinkAnalyzer.LatencyChange(timeSeconds: $0.timeSeconds + entry.offsetSeconds, fromFrames: $0.fromFrames, toFrames: $0.toFrames)
            }
        }
        var summary = LinkSummary(readings: readings, sampleRateHz: rate, withDrift: false)
        // Drift from the longest session alone: the delay restarts with each connection.
        if oneWay, let longest = sessions.max(by: { $0.session.analyzer.readings.count < $1.session.analyzer.readings.count }) {
            summary.drift = LinkSummary(readings: longest.session.analyzer.readings, sampleRateHz: rate, withDrift: true).drift
        }
        let violations = limits.violations(summary, dropouts: dropouts.count)
        let xruns = self.sessions.reduce(0) { $0 + $1.session.xruns }
        let lost = self.sessions.reduce(0) { $0 + $1.session.capturedFramesLost }
        let text = json
            ? LinkSummaryFormatter.json(summary, dropouts: dropouts, changes: changes, oneWay: oneWay,
                                         sessions: sessions.count, xruns: xruns, framesLost: lost, violations: violations)
            : LinkSummaryFormatter.human(summary, dropouts: dropouts, changes: changes, oneWay: oneWay,
                                          sessions: sessions.count, xruns: xruns, framesLost: lost, violations: violations)
        return (text, violations)
    }

    /// Latency (or delay) over time, one series per session.
    func plotSVG() -> String {
        // Each session at its own rate.
        let series = sessions.map { entry in
            LinePlot.Series(name: oneWay ? "relative delay (ms)" : "latency (ms)",
                            points: entry.session.analyzer.readings.filter(\.hasProbe).map {
                                ($0.timeSeconds + entry.offsetSeconds, $0.latencyFrames / Double(entry.session.sampleRateHz) * 1000)
                            })
        }
        let values = series.flatMap { $0.points.map(\.y) }
        let low = values.min() ?? 0, high = values.max() ?? 1
        let pad = max(0.01, (high - low) * 0.1)
        let end = series.flatMap { $0.points.map(\.x) }.max() ?? 1
        var plot = LinePlot(title: oneWay ? "Relative one-way delay, no fixed origin (its slope is the clock drift)" : "Round-trip latency over time",
                            xAxis: Axis(title: "time (s)", lower: 0, upper: max(end, 1)),
                            yAxis: Axis(title: "ms", lower: low - pad, upper: high + pad), series: series)
        plot.markers = sessions.flatMap { entry in
            entry.session.analyzer.dropouts.map { ($0.startSeconds + entry.offsetSeconds, "dropout") }
        }
        return plot.svg()
    }
}
