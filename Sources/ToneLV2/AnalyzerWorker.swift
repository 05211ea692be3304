import ToneDSP

/// The analyzer plugin's worker side: the node's analyzer (made, and made
/// again when the controls change) fed from the plugin's ring. The host's
/// worker thread only.
final class AnalyzerWorker {
    let sampleRateHz: Double
    private var settings: AnalyzerSettings?
    private var analyzer: (any StreamAnalyzer)?
    private let scratch: UnsafeMutablePointer<Float>
    private let chunkFrames: Int

    init(sampleRateHz: Double, chunkFrames: Int) {
        self.sampleRateHz = sampleRateHz
        self.chunkFrames = chunkFrames
        scratch = .allocate(capacity: chunkFrames)
    }

    deinit { scratch.deallocate() }

    /// Everything in `capture` through the analyzer for `request`'s
    /// settings; the last report's reading, or nil when no hop completed.
    func drain(_ capture: borrowing InputCapture, _ request: AnalyzerRequest) -> AnalyzerReading? {
        let wanted = AnalyzerSettings(request, sampleRateHz: sampleRateHz)
        if wanted != settings {
            settings = wanted
            // A window of the old settings is not one of the new: start again.
            analyzer = try? wanted.makeAnalyzer()
        }
        var last: ToneReport?
        while true {
            let (count, gap) = capture.read(into: scratch, maxCount: chunkFrames)
            if count > 0 {
                analyzer?.process(UnsafeBufferPointer(start: scratch, count: count)) { last = $0 }
            }
            if let gap { analyzer?.skip(frames: gap.frames) }
            if count == 0 && gap == nil { break }
        }
        guard let last, let analyzer else { return nil }
        return AnalyzerReading(last, windowFrames: analyzer.windowFrames, sampleRateHz: sampleRateHz,
                               temperament: EqualTemperament(a4Hz: wanted.a4Hz))
    }
}
