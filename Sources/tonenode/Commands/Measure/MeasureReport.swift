import Foundation
import ToneCommandLine
import ToneDSP
import ToneEngine

/// What one `measure` run found: the chain (unless only MIDI was asked for)
/// and each other analysis `--what` chose, in `MeasureAnalysis.registry`'s order.
struct MeasureReport {
    let run: ChainRecorder.Run
    let what: MeasureSelection
    let chain: ChainMeasurement?
    let outcomes: [MeasureAnalysis.Outcome]

    /// Runs the chosen analyses on `run`: MIDI first (it needs no sweep), then
    /// the chain from the sweep, then the others on its latency.
    init(_ run: ChainRecorder.Run, what: MeasureSelection) throws {
        let chosen = MeasureAnalysis.registry.filter { what.contains($0.kind) }
        (chain, outcomes) = try run.recording.withUnsafeBufferPointer { recording in
            let first = try chosen.filter(\.runsFirst).compactMap {
                try $0(MeasureAnalysis.Input(run: run, recording: recording, deconvolution: nil, chain: nil))
            }
            guard !what.isMIDIOnly else { return (nil, first) }
            let deconvolution = try SweepDeconvolution(run.signal, recording: recording)
            let chain = try ChainAnalyzer.analyze(run.signal, recording: recording, deconvolution: deconvolution)
            let input = MeasureAnalysis.Input(run: run, recording: recording, deconvolution: deconvolution, chain: chain)
            let rest = try chosen.filter { !$0.runsFirst }.compactMap { try $0(input) }
            return (chain, first + rest)
        }
        self.run = run
        self.what = what
    }

    /// Every outcome, in the registry's order.
    private var ordered: [MeasureAnalysis.Outcome] {
        MeasureAnalysis.registry.compactMap { analysis in outcomes.first { $0.kind == analysis.kind } }
    }

    /// `--json`: one object, the chain's figures (or the run's header) with one key per analysis.
    var json: String {
        var line = chain.map {
            MeasureFormatter.jsonObject($0, clientName: run.clientName, periodFrames: run.periodFrames, xruns: run.xruns)
        } ?? MeasureFormatter.jsonHeader(clientName: run.clientName, sampleRateHz: run.sampleRateHz,
                                         periodFrames: run.periodFrames, xruns: run.xruns)
        for outcome in ordered { line.add(outcome.kind.rawValue, outcome.json) }
        return line.description
    }

    /// Plain text: the chain (its latency alone when `response` was not asked for), then each analysis.
    var text: String {
        var sections: [String] = []
        if let chain, what.contains(.response) {
            sections.append(MeasureFormatter.human(chain, periodFrames: run.periodFrames, xruns: run.xruns))
        } else if let chain {
            sections.append(String(format: "latency     %12.3f frames  %9.4f ms", chain.latencyFrames, chain.latencyMs))
        }
        sections += ordered.map(\.text)
        return sections.joined(separator: "\n")
    }

    /// `--plot FILE`: the first measurement chosen gets the file named; the others a file next to it each.
    func writePlots(to path: String) throws {
        if let chain, what.contains(.response) { try PlotOption.write(ResponsePlot.svg(chain), to: path) }
        for outcome in ordered {
            try PlotOption.write(outcome.svg(),
                                 to: what.kinds.first == outcome.kind ? path : PlotOption.sibling(of: path, named: outcome.kind.rawValue))
        }
    }
}
