import ArgumentParser
import Foundation
import ToneCommandLine
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Compare each path's measured latency with the latency its ports report.",
        discussion: """
            Walks the connections from the --connect-out ports (inputs) to the --connect-in ports \
            (outputs), measures every path between them in turn (the others lifted, the graph \
            restored after) and compares each with the latency JACK reports for it.
            Exit status: 0 when every path is reported right to 1 frame, 2 when one is not, 1 on a runtime error, 64 on a bad option.
            Full guide: network.md (docs/ in the source, /usr/share/doc/tonenode/ from the .deb).
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions

    @Option(Parameters.Audit.sweepSeconds)
    var sweepSeconds: Double

    @Flag(help: "Print one JSON object per path, then a summary object.")
    var json = false

    func validate() throws {
        let sweep = Parameters.Audit.sweepSeconds
        guard sweep.accepts(sweepSeconds) else { throw ValidationError("\(sweep.commandLineName) must be from \(sweep.rangeText())") }
        guard !jack.connectOut.isEmpty, !jack.connectIn.isEmpty else {
            throw ValidationError("name the paths: --connect-out (their first inputs) and --connect-in (their last outputs)")
        }
    }

    func run() throws {
        Denormals.flushToZeroOnThisThread()
        var settings = ChainRecorder.Settings()
        jack.place(&settings)
        let auditor = try PathAuditor(settings)
        var index = 0
        let results = try auditor.audit(makeSignal: { rate in
            var plan = MeasurementSignal.Plan(sampleRateHz: rate)
            plan.sweepSeconds = sweepSeconds
            plan.toneSeconds = 0.5
            return MeasurementSignal(plan: try plan.validated())
        }, shouldStop: { SignalWatcher.isStopRequested }, measuringAgain: { failure in
            Console.err(failure.description + "; measuring the path again")
        }, each: { result in
            index += 1
            Console.out(json ? AuditFormatter.json(result, index: index) : AuditFormatter.text(result, index: index))
        })
        let flagged = results.filter { $0.verdict?.misreported == true }.count
        let silent = results.filter { $0.verdict == nil }.count
        Console.out(json ? AuditFormatter.jsonSummary(paths: results.count, misreported: flagged, silent: silent)
                         : AuditFormatter.textSummary(paths: results.count, misreported: flagged, silent: silent))
        if flagged > 0 { throw ExitCode(2) }
    }
}
