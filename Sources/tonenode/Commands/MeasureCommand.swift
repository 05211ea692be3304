import ArgumentParser
import Foundation
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure a chain (out → tools under test → in): latency, gain, frequency shift, THD+N, frequency response.",
        discussion: """
            Opens its own JACK client (ports `in`, `out`; never starts a server), \
            connects what --connect-out/--connect-in name, then plays an exponential \
            sine sweep and a test tone through the chain and records what comes back \
            on `in` (about 4 s with the defaults). It prints one summary on stdout: \
            the round-trip latency in frames and ms with sub-sample precision (it \
            agrees with jack_iodelay), the gain and frequency of the returned tone, \
            its THD+N, and the chain's magnitude response from the sweep (20 Hz to \
            20 kHz, or to 95 % of Nyquist on slower servers). \
            Exit status: 0 measured, 1 runtime error (no server, nothing came \
            back, …), 64 bad option.
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions

    @Flag(help: "Also connect our own `out` to our own `in` (measures JACK's own loop).")
    var loopback = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Peak level of the sweep and the tone in dBFS.", valueName: "dbfs"))
    var level = -12.0

    @Option(parsing: .unconditional, help: ArgumentHelp("Test tone frequency in Hz.", valueName: "hz"))
    var freq = 1000.0

    @Option(name: .customLong("sweep-start"), parsing: .unconditional,
            help: ArgumentHelp("Lowest sweep frequency in Hz.", valueName: "hz"))
    var sweepStart = 20.0

    @Option(name: .customLong("sweep-end"), parsing: .unconditional,
            help: ArgumentHelp("Highest sweep frequency in Hz (default 20000, or 95 % of Nyquist if lower).",
                               valueName: "hz"))
    var sweepEnd: Double?

    @Option(name: .customLong("sweep-seconds"), parsing: .unconditional, help: ArgumentHelp("Length of the sweep (0.25…60 s).", valueName: "s"))
    var sweepSeconds = 2.0

    @Option(name: .customLong("max-latency"), parsing: .unconditional, help: ArgumentHelp(
        "Longest round trip to look for, in seconds (0.05…10).", valueName: "s"))
    var maxLatency = 0.5

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @Option(help: ArgumentHelp("Also write the frequency response as an SVG picture to this file.", valueName: "file.svg"))
    var plot: String?

    func validate() throws {
        // The node's rules for a level and a frequency; the plan's own (sweep, Nyquist) in `plan`.
        if let problem = NodeSettings.levelProblem(level) ?? NodeSettings.frequencyProblem(freq, sampleRateHz: nil) {
            throw ValidationError(problem.description)
        }
        if NodeSettings.frequencyProblem(sweepStart, sampleRateHz: nil, setting: .sweepStart) != nil {
            throw ValidationError("--sweep-start must be a positive number of Hz")
        }
        if let sweepEnd, !(sweepEnd.isFinite && sweepEnd > 2 * sweepStart) {
            throw ValidationError("--sweep-end must be at least an octave above --sweep-start (\(format(sweepStart)) Hz)")
        }
        guard MeasurementSignal.Plan.sweepSecondsRange.contains(sweepSeconds) else {
            throw ValidationError("--sweep-seconds must be from 0.25 to 60")
        }
        guard MeasurementSignal.Plan.maxLatencySecondsRange.contains(maxLatency) else {
            throw ValidationError("--max-latency must be from 0.05 to 10 seconds")
        }
        if let plot { try PlotOption.validate(plot) }
    }

    func plan(sampleRateHz: Double) throws -> MeasurementSignal.Plan {
        var plan = MeasurementSignal.Plan(sampleRateHz: sampleRateHz)
        plan.levelDBFS = level
        plan.toneFrequencyHz = freq
        plan.sweepStartHz = sweepStart
        if let sweepEnd { plan.sweepEndHz = sweepEnd }
        plan.sweepSeconds = sweepSeconds
        plan.maxLatencySeconds = maxLatency
        return try plan.validated()
    }

    func run() throws {
        Denormals.flushToZeroOnThisThread()
        var settings = ChainRecorder.Settings()
        settings.clientName = jack.name
        settings.serverName = jack.server
        settings.connectIn = jack.connectIn
        settings.connectOut = jack.connectOut
        settings.loopback = loopback
        let recorded = try ChainRecorder.record(settings, makeSignal: { rate in
            MeasurementSignal(plan: try plan(sampleRateHz: rate))
        }, opened: { client, input, output in
            Console.err("client '\(client.name)' at \(client.sampleRateHz) Hz, \(client.bufferFrames) frames/period; "
                        + "ports \(input) (in), \(output) (out); measuring…")
            jack.renameWarnings(actualName: client.name).forEach { Console.err($0) }
        })
        let measurement = try recorded.recording.withUnsafeBufferPointer {
            try ChainAnalyzer.analyze(recorded.signal, recording: $0)
        }
        if json {
            Console.out(MeasureFormatter.json(measurement, clientName: recorded.clientName,
                                              periodFrames: recorded.periodFrames, xruns: recorded.xruns))
        } else {
            Console.out(MeasureFormatter.human(measurement, periodFrames: recorded.periodFrames, xruns: recorded.xruns))
        }
        if recorded.xruns > 0 {
            Console.err("warning: the server reported \(recorded.xruns) xrun(s) during the measurement; if a figure looks wrong, measure again")
        }
        if let plot {
            try PlotOption.write(ResponsePlot.svg(measurement), to: plot)
        }
    }
}
