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

    /// Integrates a steady tone over its span; nil: every reading is one window's.
    private let steady: SteadySpan?

    /// Throws when `hopFrames` is outside `HopWindow.hopRange(size:)` of the window.
    /// - Parameter steadySpanSeconds: the longest steady span a reading
    ///   integrates (`SteadySpan`); 0, or more than one tone asked for: one window.
    public init(estimator: ToneEstimator, hopFrames: Int, steadySpanSeconds: Double = 0) throws(ToneEstimator.SetupError) {
        self.estimator = estimator
        let configuration = estimator.configuration
        window = try HopWindow(size: configuration.fftSize, hopFrames: hopFrames)
        steady = steadySpanSeconds > 0 && configuration.maxTones == 1
            ? SteadySpan(sampleRateHz: configuration.sampleRateHz, windowFrames: configuration.fftSize,
                         hopFrames: hopFrames, maxSeconds: steadySpanSeconds)
            : nil
    }

    /// Feeds samples; `report` is called once per completed hop (after the
    /// first full window), in order.
    public func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void) {
        let rate = estimator.configuration.sampleRateHz
        window.push(input) { frame, streamFrames in
            // Silence: what `estimate` finds in a window of zeros, without the work.
            var reading = frame.map(estimator.estimate) ?? ToneReading()
            if let steady {
                if let frame { reading = steady.refine(reading, frame: frame, endFrame: streamFrames) } else { steady.reset() }
            }
            report(ToneReport(timeSeconds: Double(streamFrames) / rate, reading: reading))
        }
    }

    /// The stream lost `frames` samples: the window restarts after the gap so
    /// no window ever spans it, and the clock skips ahead.
    public func skip(frames: Int) {
        window.skip(frames: frames)
        steady?.reset()
    }
}
