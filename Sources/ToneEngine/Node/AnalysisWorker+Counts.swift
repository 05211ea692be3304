import ToneDSP

extension AnalysisWorker {
    /// Ring overflows and dropped frames, summed over the channels.
    func totals() -> (overflows: Int, droppedFrames: Int) {
        (0..<engine.channels).reduce(into: (0, 0)) { sum, channel in
            engine.withCapture(channel) { capture in
                sum.0 += capture.overflowCount.load(ordering: .relaxed)
                sum.1 += capture.droppedFrames.load(ordering: .relaxed)
            }
        }
    }

    /// The run of ±0 samples at the end of the stream after `block`, given the run before it.
    static func zeroRun(after run: Int, of block: UnsafeBufferPointer<Float>) -> Int {
        // From the end: audio ends the search at once; silence costs one pass.
        guard let newestNonZero = block.lastIndex(where: { $0 != 0 }) else { return run + block.count }
        return block.count - 1 - newestNonZero
    }
}
