import ArgumentParser
import Foundation
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Compare a path's measured latency with the latency its ports report.",
        discussion: """
            Measures the latency of the path --connect-out … --connect-in and compares \
            it with the latency its ports report.
            Exit status: 0 when the report is right to 1 frame, 2 when it is not, 1 on a runtime error, 64 on a bad option.
            Full guide: network.md (docs/ in the source, /usr/share/doc/tonenode/ from the .deb).
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions

    @Option(name: .customLong("sweep-seconds"), help: ArgumentHelp("Length of the sweep (0.25…60 s).", valueName: "s"))
    var sweepSeconds = 1.0

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    /// A difference above this many frames is a misreport.
    static let toleranceFrames = 1.0

    func validate() throws {
        guard MeasurementSignal.Plan.sweepSecondsRange.contains(sweepSeconds) else {
            throw ValidationError("--sweep-seconds must be from 0.25 to 60")
        }
        guard !jack.connectOut.isEmpty, !jack.connectIn.isEmpty else {
            throw ValidationError("name the path: --connect-out (its first input) and --connect-in (its last output)")
        }
    }

    func run() throws {
        Denormals.flushToZeroOnThisThread()
        var settings = ChainRecorder.Settings()
        jack.place(&settings)
        var reported: ClosedRange<Int>?
        let recorded = try ChainRecorder.record(settings, makeSignal: { rate in
            var plan = MeasurementSignal.Plan(sampleRateHz: rate)
            plan.sweepSeconds = sweepSeconds
            plan.toneSeconds = 0.5
            return MeasurementSignal(plan: try plan.validated())
        }, opened: { client, input, _ in
            reported = client.latencyRangeFrames(ofPort: input, capture: true)
        }, shouldStop: { SignalWatcher.isStopRequested })
        let measurement = try recorded.recording.withUnsafeBufferPointer {
            try ChainAnalyzer.analyze(recorded.signal, recording: $0)
        }
        // Other sources feeding the path (jack_thru connects the system
        // capture too) widen the range JACK reports at our `in`: the path is
        // reported right when its latency lies inside it.
        let reportedRange = reported ?? 0...0
        // JACK's cycle: one period for a loop, two when a client on the path
        // runs before ours in the cycle order (the order clients joined in).
        let period = Double(recorded.periodFrames)
        let cycles = max(1, ((measurement.latencyFrames - Double(reportedRange.lowerBound) + 0.5) / period).rounded(.down))
        let pathFrames = measurement.latencyFrames - cycles * period
        let nearest = min(max(pathFrames, Double(reportedRange.lowerBound)), Double(reportedRange.upperBound))
        let difference = pathFrames - nearest
        let flagged = abs(difference) > Self.toleranceFrames
        let path = (jack.connectOut + jack.connectIn).joined(separator: " … ")
        if json {
            var line = JSONLine()
            line.add("path_out", jack.connectOut.joined(separator: ","))
            line.add("path_in", jack.connectIn.joined(separator: ","))
            line.add("period_frames", recorded.periodFrames)
            line.add("cycle_periods", Int(cycles))
            line.add("measured_round_trip_frames", measurement.latencyFrames, .decimals(4))
            line.add("measured_frames", pathFrames, .decimals(4))
            line.add("reported_min_frames", reported?.lowerBound ?? 0)
            line.add("reported_max_frames", reported?.upperBound ?? 0)
            line.add("difference_frames", difference, .decimals(4))
            line.add("misreported", flagged)
            line.add("xruns", recorded.xruns)
            Console.out(line.description)
        } else {
            Console.out(String(format: "path %@: measured %.3f frames (round trip %.3f − %d period(s) of %d), reported %d…%d frames, "
                               + "difference %+.3f frames: %@", path, pathFrames, measurement.latencyFrames,
                               Int(cycles), recorded.periodFrames, reported?.lowerBound ?? 0, reported?.upperBound ?? 0, difference,
                               flagged ? "MISREPORTED (over 1 frame)" : "ok"))
        }
        if flagged { throw ExitCode(2) }
    }
}
