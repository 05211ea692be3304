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
            Plays test signals on `out` into the chain under test and measures what \
            comes back on `in`: latency, gain, frequency shift, THD+N, response, and more with --what.
            Exit status: 0 measured, 1 on a runtime error, 64 on a bad option.
            Full guide: measure.md (docs/ in the source, /usr/share/doc/tonenode/ from the .deb).
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

    @Option(name: .customLong("what"), help: ArgumentHelp(
        "Measurements to make, comma-separated: response (latency, gain, THD+N, magnitude response), harmonics (H2…H5 and THD versus frequency, phase, group delay, impulse response; from the same sweep, no extra time), levels (THD+N and gain versus level at --freq, -60…0 dBFS in 3 dB steps of 0.25 s), noise (AES17 idle noise, SNR, dynamic range from a -60 dBFS tone, hum lines; 2.5 s more), imd (SMPTE 60 Hz + 7 kHz 4:1 and CCIF 19 + 20 kHz intermodulation; 2 s more), crosstalk (with --channels: each output driven alone, every input read), midi (MIDI-to-audio latency and jitter of a synth: --midi-notes notes 0.25 s apart on midi_out, which --connect-midi connects; the onset of each answer on `in` to a fraction of a frame), or all (all but crosstalk and midi).",
        valueName: "list"))
    var whatList = MeasureSelection.default.defaultValueDescription

    /// `--what`, parsed (checked in `validate`).
    var what: MeasureSelection { MeasureSelection(argument: whatList) ?? .default }

    @Option(name: .customLong("connect-midi"), help: ArgumentHelp(
        "With --what midi: connect our MIDI output midi_out to this port (the synth's MIDI input; repeatable).",
        valueName: "port"))
    var connectMidi: [String] = []

    @Option(name: .customLong("midi-notes"), parsing: .unconditional, help: ArgumentHelp(
        "With --what midi: notes to send (1…4096), one every 0.25 s (middle C, velocity 100, channel 1).", valueName: "n"))
    var midiNotes = 32

    @Option(help: ArgumentHelp(
        "Channels to play and record (1…8). With more than one the ports are in_1…, out_1…, and the k-th --connect-in/--connect-out name goes to the k-th port; the other measurements use channel 1.",
        valueName: "n"))
    var channels = 1

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @Option(help: ArgumentHelp(
        "Also write the frequency response as an SVG picture to this file; with --what, one picture per measurement (the others next to it as FILE-harmonics.svg, …).",
        valueName: "file.svg"))
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
        guard (1...MeasurementSignal.Plan.maximumChannels).contains(channels) else {
            throw ValidationError("--channels must be from 1 to \(MeasurementSignal.Plan.maximumChannels)")
        }
        if channels > 1, let count = [jack.connectIn.count, jack.connectOut.count].first(where: { $0 != 0 && $0 != channels }) {
            throw ValidationError("with --channels \(channels), give --connect-in and --connect-out \(channels) times each (one port per channel), not \(count)")
        }
        if MeasureSelection(argument: whatList)?.contains(.crosstalk) == true && channels < 2 {
            throw ValidationError("--what crosstalk needs --channels 2 or more")
        }
        guard (1...4096).contains(midiNotes) else { throw ValidationError("--midi-notes must be from 1 to 4096") }
        if MeasureSelection(argument: whatList)?.contains(.midi) == true && connectMidi.isEmpty {
            throw ValidationError("--what midi needs --connect-midi PORT (the MIDI input of the synth under test)")
        }
        // A plain string, checked here: ArgumentParser's own message for a bad enum list spans several lines.
        guard MeasureSelection(argument: whatList) != nil else {
            throw ValidationError("--what takes a comma-separated list of "
                + MeasureSelection.allValueStrings.joined(separator: ", ") + ", not '\(whatList)'")
        }
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
        if what.contains(.noise) { plan.noiseSeconds = 1 }
        if what.contains(.imd) { plan.imdSeconds = 1 }
        if what.contains(.crosstalk) { plan.crosstalkChannels = channels }
        if what.contains(.midi) { plan.midiNotes = midiNotes }
        if what.isMIDIOnly {
            // Nothing goes through an audio chain: the sweep and the tone shrink to their shortest.
            plan.sweepSeconds = MeasurementSignal.Plan.sweepSecondsRange.lowerBound
            plan.toneSeconds = MeasurementSignal.Plan.toneSecondsRange.lowerBound
        }
        return try plan.validated()
    }

    /// Runs `record` once more when the server's period changed during it
    /// (PipeWire's quantum, `jack_bufsize`): figures across the change, a
    /// loop's latency first, would be wrong. A second change is an error.
    static func againAfterPeriodChange(_ record: () throws -> ChainRecorder.Run) throws -> ChainRecorder.Run {
        do { return try record() } catch ChainRecorder.Failure.periodChanged(let from, let to) {
            Console.err("the period changed from \(from) to \(to) frames during the measurement; measuring again")
            return try record()
        }
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
        let recorded = try Self.againAfterPeriodChange {
            try ChainRecorder.record(settings, makeSignal: { rate in
                MeasurementSignal(plan: try plan(sampleRateHz: rate))
            }, opened: { client, input, output in
                Console.err("client '\(client.name)' at \(client.sampleRateHz) Hz, \(client.bufferFrames) frames/period; "
                            + "ports \(input) (in), \(output) (out); measuring…")
                jack.renameWarnings(actualName: client.name).forEach { Console.err($0) }
            }, shouldStop: { SignalWatcher.isStopRequested })
        }
        let (measurement, harmonics, levels, noise, imd, midi) = try recorded.recording.withUnsafeBufferPointer { recording in
            let midi = what.contains(.midi) ? try MIDILatencyAnalyzer.analyze(recorded.signal, recording: recording) : nil
            guard !what.isMIDIOnly else { return (ChainMeasurement?.none, HarmonicAnalysis?.none, LevelSweep?.none,
                                                  NoiseMeasurement?.none, IntermodulationMeasurement?.none, midi) }
            let deconvolution = try SweepDeconvolution(recorded.signal, recording: recording)
            let measurement = try ChainAnalyzer.analyze(recorded.signal, recording: recording, deconvolution: deconvolution)
            let harmonics = what.contains(.harmonics)
                ? HarmonicAnalyzer.analyze(recorded.signal, deconvolution: deconvolution,
                                           latencyFrames: measurement.latencyFrames)
                : nil
            let levels = what.contains(.levels)
                ? try LevelSweepAnalyzer.analyze(recorded.signal, recording: recording, latencyFrames: measurement.latencyFrames)
                : nil
            let noise = what.contains(.noise)
                ? try NoiseAnalyzer.analyze(recorded.signal, recording: recording, latencyFrames: measurement.latencyFrames)
                : nil
            let imd = what.contains(.imd)
                ? try IntermodulationAnalyzer.analyze(recorded.signal, recording: recording, latencyFrames: measurement.latencyFrames)
                : nil
            return (measurement, harmonics, levels, noise, imd, midi)
        }
        let crosstalk = what.contains(.crosstalk) ? try Self.crosstalk(recorded) : nil
        if json {
            var line = measurement.map {
                MeasureFormatter.jsonObject($0, clientName: recorded.clientName, periodFrames: recorded.periodFrames,
                                            xruns: recorded.xruns)
            } ?? MeasureFormatter.jsonHeader(clientName: recorded.clientName, sampleRateHz: recorded.sampleRateHz,
                                             periodFrames: recorded.periodFrames, xruns: recorded.xruns)
            if let harmonics { line.add("harmonics", MeasureFormatter.json(harmonics)) }
            if let levels { line.add("levels", MeasureFormatter.json(levels)) }
            if let noise { line.add("noise", MeasureFormatter.json(noise)) }
            if let imd { line.add("imd", MeasureFormatter.json(imd)) }
            if let crosstalk { line.add("crosstalk", MeasureFormatter.json(crosstalk)) }
            if let midi { line.add("midi", MeasureFormatter.json(midi)) }
            Console.out(line.description)
        } else {
            var sections: [String] = []
            if let measurement, what.contains(.response) {
                sections.append(MeasureFormatter.human(measurement, periodFrames: recorded.periodFrames, xruns: recorded.xruns))
            } else if let measurement {
                sections.append(String(format: "latency     %12.3f frames  %9.4f ms", measurement.latencyFrames, measurement.latencyMs))
            }
            if let harmonics { sections.append(MeasureFormatter.human(harmonics)) }
            if let levels { sections.append(MeasureFormatter.human(levels)) }
            if let noise { sections.append(MeasureFormatter.human(noise)) }
            if let imd { sections.append(MeasureFormatter.human(imd)) }
            if let crosstalk { sections.append(MeasureFormatter.human(crosstalk)) }
            if let midi { sections.append(MeasureFormatter.human(midi)) }
            Console.out(sections.joined(separator: "\n"))
        }
        if recorded.xruns > 0 {
            Console.err("warning: the server reported \(recorded.xruns) xrun(s) during the measurement; if a figure looks wrong, measure again")
        }
        if recorded.midiDropped > 0 {
            Console.err("warning: \(recorded.midiDropped) MIDI message(s) could not be sent; the MIDI figures miss those notes")
        }
        if let plot {
            if let measurement, what.contains(.response) { try PlotOption.write(ResponsePlot.svg(measurement), to: plot) }
            // The first measurement chosen gets the file named; the others a file next to it each.
            func write(_ kind: MeasureSelection.Kind, _ svg: @autoclosure () -> String?) throws {
                guard let svg = svg() else { return }
                try PlotOption.write(svg, to: what.kinds.first == kind ? plot : PlotOption.sibling(of: plot, named: kind.rawValue))
            }
            try write(.harmonics, harmonics.map(HarmonicsPlot.svg))
            try write(.levels, levels.map(LevelsPlot.svg))
            try write(.noise, noise.map(NoisePlot.svg))
            try write(.imd, imd.map(IntermodulationPlot.svg))
            try write(.crosstalk, crosstalk.map(CrosstalkPlot.svg))
            try write(.midi, midi.map(MIDILatencyPlot.svg))
        }
    }

    /// Every channel's recording, as buffers for `CrosstalkAnalyzer`.
    static func crosstalk(_ run: ChainRecorder.Run) throws -> CrosstalkMatrix {
        func withBuffers(_ index: Int, _ buffers: [UnsafeBufferPointer<Float>]) throws -> CrosstalkMatrix {
            guard index < run.recordings.count else { return try CrosstalkAnalyzer.analyze(run.signal, recordings: buffers) }
            return try run.recordings[index].withUnsafeBufferPointer { try withBuffers(index + 1, buffers + [$0]) }
        }
        return try withBuffers(0, [])
    }
}
