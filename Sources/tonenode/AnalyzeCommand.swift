import ArgumentParser
import ToneAudioFile
import ToneDSP
import ToneJack

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Run the tone or pitch detector on an audio file (WAV, FLAC, AIFF, Ogg … at any rate).",
        discussion: """
            Prints the same reports as `run`, with time_s counted from the start of \
            the file. Exit status: 0 when at least one window was analysed, 1 on an \
            error or when the file is shorter than one window.
            """)

    @Argument(help: ArgumentHelp("The audio file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Channel to analyse, counting from 1.", valueName: "k"))
    var channel = 1

    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Pitch") var pitch: ModeOptions
    @OptionGroup(title: "Pitch") var tuning: TuningOptions

    func validate() throws {
        guard channel >= 1 else { throw ValidationError("--channel counts from 1") }
    }

    func run() throws {
        Denormals.flushToZeroOnThisThread()
        let reader = try AudioFileReader(path: file)
        var settings = NodeSettings()
        analysis.apply(to: &settings)
        pitch.apply(to: &settings, band: analysis.band, tuning: tuning)
        if let problem = settings.problem(sampleRateHz: reader.sampleRateHz) {
            throw ToneEstimator.SetupError.invalid(problem)
        }
        let analyzer = try settings.makeAnalyzer(sampleRateHz: reader.sampleRateHz, planning: .estimate)
        var reports = 0
        try reader.forEachBlock(channel: channel - 1) { block in
            analyzer.process(block) { report in
                reports += 1
                Console.out(analysis.json ? ReportFormatter.json(report) : ReportFormatter.human(report))
            }
        }
        if reports == 0 {
            Console.err("error: \(file) is shorter than one analysis window (\(analysis.fftSize) frames); nothing to report")
            throw ExitCode.failure
        }
    }
}
