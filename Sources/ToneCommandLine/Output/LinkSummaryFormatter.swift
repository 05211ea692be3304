import Foundation
import ToneDSP

/// The summary `tonenode link` prints on exit, human or one JSON object.
public enum LinkSummaryFormatter {
    public static func human(_ s: LinkSummary, dropouts: [LinkAnalyzer.Dropout], changes: [LinkAnalyzer.LatencyChange],
                      oneWay: Bool, sessions: Int, xruns: Int, framesLost: Int, violations: [String]) -> String {
        var lines = ["summary: \(s.readingsWithProbe) of \(s.readings) readings carried the probe"
                     + (sessions > 1 ? " over \(sessions) server connections" : "")]
        let what = oneWay ? "relative delay" : "latency"
        if let spread = s.latencyFrames {
            if oneWay {
                lines.append("  the relative delay has no fixed origin (the servers' frame counters share none): "
                             + "its changes and its slope (the drift) are real, its value is not a latency")
            }
            lines.append(String(format: "  %@ (frames): min %.3f  median %.3f  p99 %.3f  max %.3f", what,
                                spread.minimum, spread.median, spread.p99, spread.maximum))
            lines.append(String(format: "  %@ (ms):     min %.4f  median %.4f  p99 %.4f  max %.4f", what,
                                s.milliseconds(spread.minimum), s.milliseconds(spread.median),
                                s.milliseconds(spread.p99), s.milliseconds(spread.maximum)))
            if !oneWay {
                lines.append(String(format: "  jitter (max − min): %.4f frames (%.4f ms); histogram of 10 bins: %@",
                                    spread.maximum - spread.minimum, s.milliseconds(spread.maximum - spread.minimum),
                                    s.histogram.map(String.init).joined(separator: " ")))
            }
        }
        if let gain = s.gainDB, let level = s.levelDBFS {
            lines.append(String(format: "  gain %+.3f dB, level %.1f dBFS", gain, level))
        }
        if let drift = s.drift {
            lines.append(String(format: "  clock drift %+.3f ppm ± %.3f; resolution %.3f ppm over 1 s, %.4f ppm over 10 s of averaging "
                                + "(reading scatter %.4f frames); resampler settled after %.1f s",
                                drift.ppm, drift.standardErrorPPM, drift.resolutionPPMAt1s, drift.resolutionPPMAt10s,
                                drift.readingScatterFrames, drift.settledAfterSeconds))
        }
        let total = dropouts.reduce(0) { $0 + $1.durationSeconds }
        lines.append(String(format: "  dropouts: %d, %.1f ms in all", dropouts.count, total * 1000))
        for dropout in dropouts.prefix(20) {
            lines.append(String(format: "    at %.3f s for %.1f ms", dropout.startSeconds, dropout.durationSeconds * 1000))
        }
        if !oneWay {
            lines.append("  latency changes: \(changes.count)")
            for change in changes.prefix(20) {
                lines.append(String(format: "    at %.3f s: %.3f → %.3f frames (%+.3f)", change.timeSeconds,
                                    change.fromFrames, change.toFrames, change.toFrames - change.fromFrames))
            }
        }
        if xruns > 0 || framesLost > 0 {
            lines.append("  warning: \(xruns) xrun(s) on our server, \(framesLost) input frame(s) lost by our own capture")
        }
        lines.append(violations.isEmpty ? "  within limits" : "  LIMITS BROKEN: " + violations.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }

    public static func json(_ s: LinkSummary, dropouts: [LinkAnalyzer.Dropout], changes: [LinkAnalyzer.LatencyChange],
                     oneWay: Bool, sessions: Int, xruns: Int, framesLost: Int, violations: [String]) -> String {
        var line = JSONLine()
        line.add("summary", true)
        line.add("mode", oneWay ? "one_way" : "round_trip")
        line.add("sample_rate_hz", s.sampleRateHz)
        line.add("readings", s.readings)
        line.add("readings_with_probe", s.readingsWithProbe)
        let spread = s.latencyFrames
        for (key, value) in [("min", spread?.minimum), ("median", spread?.median), ("p99", spread?.p99), ("max", spread?.maximum)] {
            line.add("latency_\(key)_frames", value, .decimals(4))
            line.add("latency_\(key)_ms", value.map(s.milliseconds), .decimals(5))
        }
        line.add("jitter_ms", spread.map { s.milliseconds($0.maximum - $0.minimum) }, .decimals(5))
        line.add("histogram", s.histogram.map { count -> JSONLine in
            var bin = JSONLine()
            bin.add("count", count)
            return bin
        })
        line.add("gain_db", s.gainDB, .decimals(3))
        line.add("level_dbfs", s.levelDBFS, .decimals(2))
        line.add("drift_ppm", s.drift?.ppm, .decimals(4))
        line.add("drift_standard_error_ppm", s.drift?.standardErrorPPM, .decimals(5))
        line.add("drift_resolution_ppm_1s", s.drift?.resolutionPPMAt1s, .decimals(5))
        line.add("drift_resolution_ppm_10s", s.drift?.resolutionPPMAt10s, .decimals(6))
        line.add("settled_after_s", s.drift?.settledAfterSeconds, .decimals(2))
        line.add("dropouts", dropouts.count)
        line.add("dropout_total_ms", dropouts.reduce(0) { $0 + $1.durationSeconds } * 1000, .decimals(2))
        line.add("dropout_list", dropouts.map { dropout -> JSONLine in
            var item = JSONLine()
            item.add("time_s", dropout.startSeconds, .decimals(4))
            item.add("duration_ms", dropout.durationSeconds * 1000, .decimals(2))
            return item
        })
        line.add("latency_changes", changes.map { change -> JSONLine in
            var item = JSONLine()
            item.add("time_s", change.timeSeconds, .decimals(3))
            item.add("from_frames", change.fromFrames, .decimals(4))
            item.add("to_frames", change.toFrames, .decimals(4))
            return item
        })
        line.add("sessions", sessions)
        line.add("xruns", xruns)
        line.add("frames_lost", framesLost)
        line.add("within_limits", violations.isEmpty)
        return line.description
    }
}
