import ArgumentParser
import Foundation
import ToneCommandLine
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

struct MeasureCommand: ParsableCommand {
    private typealias Measure = Parameters.Measure

    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure a chain (out → tools under test → in): latency, gain, frequency shift, THD+N, frequency response.",
        discussion: """
            Plays test signals on `out` into the chain under test and measures what \
            comes back on `in`: latency, gain, frequency shift, THD+N, response, and more with --what.
            Exit status: 0 measured, 1 on a runtime error, 64 on a bad option.
            Full guide: measure.md (docs/ in the source, /usr/share/doc/tonenode/ from the .deb).
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions

    @Flag(Measure.loopback)
    var loopback: Bool

    @Option(Measure.level, parsing: .unconditional)
    var level: Double

    @Option(Measure.frequency, parsing: .unconditional)
    var freq: Double

    @Option(Measure.sweepStart, parsing: .unconditional)
    var sweepStart: Double

    @Option(name: Measure.sweepEnd.optionName, parsing: .unconditional, help: Measure.sweepEnd.argumentHelp)
    var sweepEnd: Double?

    @Option(Measure.sweepSeconds, parsing: .unconditional)
    var sweepSeconds: Double

    @Option(Measure.maxLatency, parsing: .unconditional)
    var maxLatency: Double

    /// Parsed by ArgumentParser through `MeasureSelection.parse`, whose error is one line (its own lists
    /// the values one per line); a transform shows no default, so the help states it.
    @Option(name: Measure.what.optionName, help: ArgumentHelp(
        Measure.what.help + " (default: \(MeasureSelection.default.defaultValueDescription))", valueName: Measure.what.valueName),
            transform: MeasureSelection.parse)
    var what: MeasureSelection = .default

    @Option(Measure.connectMidi)
    var connectMidi: [String]

    @Option(Measure.midiNotes, parsing: .unconditional)
    var midiNotes: Int

    @Option(Measure.channels)
    var channels: Int

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @Option(help: ArgumentHelp(
        "Also write the frequency response as an SVG picture to this file; with --what, one picture per measurement (the others next to it as FILE-harmonics.svg, …).",
        valueName: "file.svg"))
    var plot: String?

    /// The options `MeasureSettings` judges (the one home of their rules).
    var settings: MeasureSettings {
        var settings = MeasureSettings()
        settings.levelDBFS = level
        settings.toneFrequencyHz = freq
        settings.sweepStartHz = sweepStart
        settings.sweepEndHz = sweepEnd
        settings.sweepSeconds = sweepSeconds
        settings.maxLatencySeconds = maxLatency
        settings.channels = channels
        settings.midiNotes = midiNotes
        settings.connectInCount = jack.connectIn.count
        settings.connectOutCount = jack.connectOut.count
        settings.connectMidiCount = connectMidi.count
        settings.measuresCrosstalk = what.contains(.crosstalk)
        settings.measuresMIDI = what.contains(.midi)
        return settings
    }

    func validate() throws {
        if let problem = settings.problems().first { throw ValidationError(problem.description) }
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
        if what.contains(.levels) { plan.levelStepsDBFS = LevelSweepAnalyzer.defaultStepsDBFS }
        if what.contains(.noise) { plan.noiseSeconds = MeasurementSignal.Plan.defaultNoiseSeconds }
        if what.contains(.imd) { plan.imdSeconds = MeasurementSignal.Plan.defaultIMDSeconds }
        if what.contains(.crosstalk) { plan.crosstalkChannels = channels }
        if what.contains(.midi) { plan.midiNotes = midiNotes }
        if what.isMIDIOnly {
            // Nothing goes through an audio chain: the sweep and the tone shrink to their shortest.
            plan.sweepSeconds = MeasurementSignal.Plan.sweepSecondsRange.lowerBound
            plan.toneSeconds = MeasurementSignal.Plan.toneSecondsRange.lowerBound
        }
        return try plan.validated()
    }

    /// Runs `record` once more when the server's period or sample rate
    /// changed during it (PipeWire's quantum, `jack_bufsize`, PipeWire's
    /// `clock.force-rate`): figures across the change, a loop's latency
    /// first, would be wrong. A second change is an error.
    static func againAfterPeriodChange(_ record: () throws -> ChainRecorder.Run) throws -> ChainRecorder.Run {
        do { return try record() } catch let failure as ChainRecorder.Failure {
            // A new sample rate: the next recording opens at it, its signal made for it.
            switch failure {
            case .periodChanged, .sampleRateChanged: Console.err(failure.description + "; measuring again")
            default: throw failure
            }
            return try record()
        }
    }

    /// Measurements in all while xruns spoil them (the first included).
    static let attemptsWithXruns = 3

    /// One recording of the chain; `announce`: say which client and ports (the first time only).
    func record(_ settings: ChainRecorder.Settings, announce: Bool) throws -> ChainRecorder.Run {
        try ChainRecorder.record(settings, makeSignal: { rate in
            MeasurementSignal(plan: try plan(sampleRateHz: rate))
        }, opened: { client, input, output in
            guard announce else { return }
            Console.err("client '\(client.name)' at \(client.sampleRateHz) Hz, \(client.bufferFrames) frames/period; "
                        + "ports \(input) (in), \(output) (out); measuring…")
            jack.renameWarnings(actualName: client.name).forEach { Console.err($0) }
        }, shouldStop: { SignalWatcher.isStopRequested })
    }

    /// The xruns of every attempt, and the parts of the kept one they may have spoilt.
    static func xrunWarning(signal: MeasurementSignal, xruns: Int, xrunFrames: [Int], periodFrames: Int) -> String {
        // Seen by a thread that looks at least every 100 ms.
        let margin = Int(signal.plan.sampleRateHz / 10) + periodFrames
        let touched = signal.parts(touchedAt: xrunFrames, margin: margin).map(\.name)
        return "warning: xruns in each of \(attemptsWithXruns) attempts (\(xruns) in the one kept); "
            + (touched.isEmpty ? "if a figure looks wrong, measure again"
                               : "figures from " + touched.joined(separator: ", ") + " may be wrong; the rest were measured clean")
    }

    func run() throws {
        Denormals.flushToZeroOnThisThread()
        var settings = ChainRecorder.Settings()
        jack.place(&settings)
        settings.loopback = loopback
        settings.channels = channels
        settings.midiOutput = what.contains(.midi)
        settings.connectMIDI = connectMidi
        settings.requiresAudioOutput = !what.isMIDIOnly
        // An xrun can spoil a figure (an H2 of −70.6 dB where a clean run reads −120.9):
        // measured again, as `audit` does, up to `attemptsWithXruns` in all; the run with the fewest kept.
        var recorded = try Self.againAfterPeriodChange { try record(settings, announce: true) }
        for attempt in 2...Self.attemptsWithXruns where recorded.xruns > 0 {
            Console.err("\(recorded.xruns) xrun(s) during the measurement: measuring again (attempt \(attempt) of \(Self.attemptsWithXruns))")
            let again = try Self.againAfterPeriodChange { try record(settings, announce: false) }
            if again.xruns < recorded.xruns { recorded = again }
        }
        let report = try MeasureReport(recorded, what: what)
        Console.out(json ? report.json : report.text)
        if recorded.xruns > 0 {
            Console.err(Self.xrunWarning(signal: recorded.signal, xruns: recorded.xruns, xrunFrames: recorded.xrunFrames,
                                         periodFrames: recorded.periodFrames))
        }
        if recorded.midiDropped > 0 {
            Console.err("warning: \(recorded.midiDropped) MIDI message(s) could not be sent; the MIDI figures miss those notes")
        }
        if let plot { try report.writePlots(to: plot) }
    }
}
