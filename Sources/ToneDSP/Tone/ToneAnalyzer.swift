/// Slides a window over a stream and runs the detector every hop.
///
/// The same object serves a file (`tonenode analyze`) and the live node's
/// worker, so what is tested offline is what runs live.
///
/// Worker only.
public final class ToneAnalyzer {
    public let estimator: ToneEstimator
    public var hopFrames: Int { window.hopFrames }
    /// Frames in one analysed window.
    public var windowFrames: Int { window.size }
    private let window: HopWindow
    /// Frames of stream time seen, gaps included.
    public var streamFrames: Int { window.streamFrames }

    /// Throws when `hopFrames` is outside `HopWindow.hopRange(size:)` of the window.
    public init(estimator: ToneEstimator, hopFrames: Int) throws(ToneEstimator.SetupError) {
        self.estimator = estimator
        window = try HopWindow(size: estimator.configuration.fftSize, hopFrames: hopFrames)
    }

    /// Feeds samples; `report` is called once per completed hop (after the
    /// first full window), in order.
    public func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void) {
        let rate = estimator.configuration.sampleRateHz
        window.push(input) { frame, streamFrames in
            // Silence: what `estimate` finds in a window of zeros, without the work.
            let reading = frame.map(estimator.estimate) ?? ToneReading()
            report(ToneReport(timeSeconds: Double(streamFrames) / rate, reading: reading))
        }
    }

    /// The stream lost `frames` samples: the window restarts after the gap so
    /// no window ever spans it, and the clock skips ahead.
    public func skip(frames: Int) {
        window.skip(frames: frames)
    }
}
