import ToneCommandLine
import ToneDSP
import ToneEngine

extension MeasureAnalysis {
    /// Every analysis beyond the chain's (`response`), in the order `--what`
    /// lists them and `measure` reports them: one entry each.
    static let registry: [MeasureAnalysis] = [
        MeasureAnalysis(.harmonics, analyze: { input in
            input.deconvolution.flatMap { deconvolution in input.chain.map {
                HarmonicAnalyzer.analyze(input.run.signal, deconvolution: deconvolution, latencyFrames: $0.latencyFrames)
            } }
        }, json: MeasureFormatter.json, text: MeasureFormatter.human, svg: HarmonicsPlot.svg),
        MeasureAnalysis(.levels, analyze: { input in
            try input.chain.map {
                try LevelSweepAnalyzer.analyze(input.run.signal, recording: input.recording, latencyFrames: $0.latencyFrames)
            }
        }, json: MeasureFormatter.json, text: MeasureFormatter.human, svg: LevelsPlot.svg),
        MeasureAnalysis(.noise, analyze: { input in
            try input.chain.map {
                try NoiseAnalyzer.analyze(input.run.signal, recording: input.recording, latencyFrames: $0.latencyFrames)
            }
        }, json: MeasureFormatter.json, text: MeasureFormatter.human, svg: NoisePlot.svg),
        MeasureAnalysis(.imd, analyze: { input in
            try input.chain.map {
                try IntermodulationAnalyzer.analyze(input.run.signal, recording: input.recording, latencyFrames: $0.latencyFrames)
            }
        }, json: MeasureFormatter.json, text: MeasureFormatter.human, svg: IntermodulationPlot.svg),
        MeasureAnalysis(.crosstalk, analyze: { input in try crosstalk(input.run) },
                        json: MeasureFormatter.json, text: MeasureFormatter.human, svg: CrosstalkPlot.svg),
        MeasureAnalysis(.midi, runsFirst: true, analyze: { input in
            try MIDILatencyAnalyzer.analyze(input.run.signal, recording: input.recording)
        }, json: MeasureFormatter.json, text: MeasureFormatter.human, svg: MIDILatencyPlot.svg),
    ]

    /// Every channel's recording, as buffers for `CrosstalkAnalyzer`.
    static func crosstalk(_ run: ChainRecorder.Run) throws -> CrosstalkMatrix {
        func withBuffers(_ index: Int, _ buffers: [UnsafeBufferPointer<Float>]) throws -> CrosstalkMatrix {
            guard index < run.recordings.count else { return try CrosstalkAnalyzer.analyze(run.signal, recordings: buffers) }
            return try run.recordings[index].withUnsafeBufferPointer { try withBuffers(index + 1, buffers + [$0]) }
        }
        return try withBuffers(0, [])
    }
}
