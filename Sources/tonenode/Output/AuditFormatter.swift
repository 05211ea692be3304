import Foundation
import ToneCore
import ToneEngine
import ToneCommandLine

/// `audit`'s lines: one per path as it is measured, then a summary.
enum AuditFormatter {
    /// Two lines: the path, then its figures and verdict.
    static func text(_ result: PathAuditor.PathResult, index: Int) -> String {
        let lifted = result.lifted.isEmpty ? "" : " (lifted while measured: \(result.lifted.map(\.description).joined(separator: ", ")))"
        let head = "path \(index): \(result.path.ports.joined(separator: " → "))\(lifted)"
        guard let verdict = result.verdict else {
            return head + "\n  no signal came through: this input does not feed that output"
        }
        let reported = verdict.reportedFrames
        let figures = String(format: "  measured %.3f frames (round trip %.3f − the loop's period of %d), reported %d…%d frames, difference %+.3f frames: %@",
                             verdict.measuredFrames, verdict.roundTripFrames, verdict.periodFrames,
                             reported.lowerBound, reported.upperBound, verdict.differenceFrames,
                             verdict.misreported ? "MISREPORTED (over 1 frame)" : "ok")
        return head + "\n" + figures + (result.xruns > 0 ? " (\(result.xruns) xrun(s): figures may be wrong)" : "")
    }

    static func textSummary(paths: Int, misreported: Int, silent: Int) -> String {
        "\(paths) path(s): \(misreported) misreported" + (silent > 0 ? ", \(silent) carried no signal" : "")
    }

    /// One object: what a script needs to correct the path (its ports, what
    /// JACK reports at each, measured, reported, difference).
    static func json(_ result: PathAuditor.PathResult, index: Int) -> String {
        var line = JSONLine()
        line.add("path", index)
        line.add("path_out", result.path.entry)
        line.add("path_in", result.path.exit)
        line.add("ports", zip(result.path.ports, result.reportedAtPorts).map { port, range in
            var object = JSONLine()
            object.add("port", port)
            object.add("reported_min_frames", range?.lowerBound)
            object.add("reported_max_frames", range?.upperBound)
            return object
        })
        line.add("lifted", result.lifted.map { edge in
            var object = JSONLine()
            object.add("output", edge.output)
            object.add("input", edge.input)
            return object
        })
        line.add("signal", result.verdict != nil)
        if let verdict = result.verdict {
            line.add("period_frames", verdict.periodFrames)
            line.add("cycle_periods", verdict.cyclePeriods)
            line.add("measured_round_trip_frames", verdict.roundTripFrames, .decimals(4))
            line.add("measured_frames", verdict.measuredFrames, .decimals(4))
            line.add("reported_min_frames", verdict.reportedFrames.lowerBound)
            line.add("reported_max_frames", verdict.reportedFrames.upperBound)
            line.add("difference_frames", verdict.differenceFrames, .decimals(4))
            line.add("misreported", verdict.misreported)
        }
        line.add("xruns", result.xruns)
        return line.description
    }

    static func jsonSummary(paths: Int, misreported: Int, silent: Int) -> String {
        var line = JSONLine()
        line.add("summary", true)
        line.add("paths", paths)
        line.add("misreported", misreported)
        line.add("silent", silent)
        return line.description
    }
}
