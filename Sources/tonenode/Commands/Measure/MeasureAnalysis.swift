import ToneCommandLine
import ToneDSP
import ToneEngine

/// One analysis `measure --what` can add to the chain's: how it runs on the
/// recording, and how its result reads as JSON, as text and as a picture.
/// `MeasureAnalysis.registry` lists them; `MeasureReport` runs and reports them.
struct MeasureAnalysis: Sendable {
    /// What an analysis has to work on: the run, channel 1's recording and,
    /// unless only MIDI was asked for, the sweep's deconvolution and the chain
    /// measured from it (its latency places every later part).
    struct Input {
        let run: ChainRecorder.Run
        let recording: UnsafeBufferPointer<Float>
        let deconvolution: SweepDeconvolution?
        let chain: ChainMeasurement?
    }

    /// One analysis's result, in each form `measure` writes it.
    struct Outcome {
        let kind: MeasureSelection.Kind
        let json: JSONLine
        let text: String
        /// Drawn only when `--plot` asks.
        let svg: () -> String
    }

    let kind: MeasureSelection.Kind
    /// Whether it runs before the chain is measured: MIDI needs no sweep (and
    /// is all a MIDI-only run measures); the others follow the chain's latency.
    let runsFirst: Bool
    private let outcome: @Sendable (Input) throws -> Outcome?

    /// An analysis whose result is a `Result`.
    /// - Parameters:
    ///   - analyze: the result; nil when the input lacks what it needs.
    ///   - json, text, svg: the result as `measure --json`, plain `measure` and `--plot` write it.
    init<Result>(_ kind: MeasureSelection.Kind, runsFirst: Bool = false, analyze: @escaping @Sendable (Input) throws -> Result?,
                 json: @escaping @Sendable (Result) -> JSONLine, text: @escaping @Sendable (Result) -> String,
                 svg: @escaping @Sendable (Result) -> String) {
        self.kind = kind
        self.runsFirst = runsFirst
        outcome = { input in
            guard let result = try analyze(input) else { return nil }
            return Outcome(kind: kind, json: json(result), text: text(result), svg: { svg(result) })
        }
    }

    /// The result for `input`; nil when the input lacks what it needs.
    func callAsFunction(_ input: Input) throws -> Outcome? { try outcome(input) }
}
