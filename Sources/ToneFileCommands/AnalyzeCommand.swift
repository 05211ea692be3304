import ArgumentParser
import Foundation
import ToneAudioFile
import ToneCommandLine
import ToneCore
import ToneDSP

public struct AnalyzeCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Run the tone or pitch detector on an audio file (WAV, FLAC, AIFF, Ogg … at any rate).",
        discussion: """
            Prints the same reports as `run`, with time_s counted from the start of \
            the file. Exit status: 0 when at least one window was analysed, 1 on an \
            error or when the file is shorter than one window.
            """)

    @Argument(help: ArgumentHelp("The audio file.", valueName: "file"))
    var file: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Channel to analyse, counting from 1.", valueName: "k"))
    var channel = 1

    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Pitch") var pitch: ModeOptions
    @OptionGroup(title: "Pitch") var tuning: TuningOptions

    @Option(help: ArgumentHelp("Also write the file's spectrum and spectrogram as an SVG picture to this file.",
                               valueName: "file.svg"))
    var plot: String?

    public init() {}

    public func validate() throws {
        guard channel >= 1 else { throw ValidationError("--channel counts from 1") }
        if let plot { try PlotOption.validate(plot) }
    }

    public func run() throws {
        Denormals.flushToZeroOnThisThread()
        let reader = try AudioFileReader(path: file)
        var settings = NodeSettings()
        analysis.apply(to: &settings)
        pitch.apply(to: &settings, band: analysis.band, tuning: tuning)
        if let problem = settings.problems(sampleRateHz: reader.sampleRateHz).first { throw problem }
        let analyzer = try settings.makeAnalyzer(sampleRateHz: reader.sampleRateHz, planning: .estimate)
        var reports = 0
        var pitchTrack: [PitchTrackPlot.Point]? = plot != nil && settings.mode == .pitch ? [] : nil
        let windowSeconds = Double(analyzer.windowFrames) / reader.sampleRateHz
        try reader.forEachBlock(channel: channel - 1) { block in
            analyzer.process(block) { report in
                reports += 1
                pitchTrack?.append(PitchTrackPlot.point(report, windowSeconds: windowSeconds))
                Console.out(analysis.json ? ReportFormatter.json(report, listTones: analysis.listsTones)
                                          : ReportFormatter.human(report, listTones: analysis.listsTones))
            }
        }
        if let plot {
            // A reader of its own: the one above has been read to the end.
            let samples = try AudioFileReader(path: file).readChannel(channel - 1)
            let name = URL(fileURLWithPath: file).lastPathComponent
            guard let svg = FilePlot.svg(samples: samples, sampleRateHz: reader.sampleRateHz, name: name,
                                        pitchTrack: pitchTrack, a4Hz: settings.a4Hz) else {
                Console.err("error: \(file) is too short to plot (fewer than 256 frames)")
                throw ExitCode.failure
            }
            try PlotOption.write(svg, to: plot)
        }
        if reports == 0 {
            Console.err("error: \(file) is shorter than one analysis window (\(analysis.fftSize) frames); nothing to report")
            throw ExitCode.failure
        }
    }
}
