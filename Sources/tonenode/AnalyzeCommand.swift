import ArgumentParser
import ToneAudioFile
import ToneDSP
import ToneJack

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Run the tone detector on an audio file (WAV, FLAC, AIFF, Ogg … at any rate).",
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

    func validate() throws {
        guard channel >= 1 else { throw ValidationError("--channel counts from 1") }
    }

    func run() throws {
        Denormals.flushToZeroOnThisThread()
        let reader = try AudioFileReader(path: file)
        var settings = NodeSettings()
        analysis.apply(to: &settings)
        let configuration = settings.estimatorConfiguration(sampleRateHz: reader.sampleRateHz)
        if let problem = configuration.problem { throw ToneEstimator.SetupError.invalid(problem) }
        let estimator = try ToneEstimator(configuration, planning: .estimate)
        let analyzer = ToneAnalyzer(estimator: estimator, hopFrames: analysis.hop)
        var reports = 0
        try reader.forEachBlock(channel: channel - 1) { block in
            analyzer.process(block) { report in
                reports += 1
                Console.out(analysis.json ? ReportFormatter.json(report, listTones: analysis.listsTones)
                                          : ReportFormatter.human(report, listTones: analysis.listsTones))
            }
        }
        if reports == 0 {
            Console.err("error: \(file) is shorter than one analysis window (\(analysis.fftSize) frames); nothing to report")
            throw ExitCode.failure
        }
    }
}
