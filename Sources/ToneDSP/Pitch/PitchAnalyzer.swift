/// Slides a window over a stream and runs the pitch detector every hop; each
/// report carries the fundamental in `reading` and its note in `pitch`.
///
/// Serves `tonenode analyze --mode pitch` and the live worker alike.
///
/// Worker only.
public final class PitchAnalyzer: StreamAnalyzer {
    public let detector: PitchDetector
    public var hopFrames: Int { window.hopFrames }
    /// Frames in one analysed window.
    public var windowFrames: Int { window.size }
    public let temperament: EqualTemperament
    private let window: HopWindow
    /// Frames of stream time seen, gaps included.
    public var streamFrames: Int { window.streamFrames }

    /// Integrates a steady fundamental over its span; nil: every reading is one window's.
    private let steady: SteadySpan?

    /// Throws when `hopFrames` is outside `HopWindow.hopRange(size:)` of the window.
    /// - Parameter steadySpanSeconds: the longest steady span a reading
    ///   integrates (`SteadySpan`); 0: one window.
    public init(detector: PitchDetector, hopFrames: Int, temperament: EqualTemperament = EqualTemperament(),
                steadySpanSeconds: Double = 0) throws(ToneEstimator.SetupError) {
        self.detector = detector
        self.temperament = temperament
        let configuration = detector.configuration
        window = try HopWindow(size: configuration.frameSize, hopFrames: hopFrames)
        steady = steadySpanSeconds > 0
            ? SteadySpan(sampleRateHz: configuration.sampleRateHz, windowFrames: configuration.frameSize,
                         hopFrames: hopFrames, maxSeconds: steadySpanSeconds)
            : nil
    }

    public func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void) {
        let rate = detector.configuration.sampleRateHz
        window.push(input) { frame, streamFrames in
            // Silence: what `estimate` finds in a window of zeros, without the work.
            var reading = frame.map(detector.estimate) ?? ToneReading()
            if let steady {
                if let frame { reading = steady.refine(reading, frame: frame, endFrame: streamFrames) } else { steady.reset() }
            }
            report(ToneReport(timeSeconds: Double(streamFrames) / rate, reading: reading,
                              pitch: PitchReading(frequencyHz: reading.frequencyHz, temperament: temperament)))
        }
    }

    /// The stream lost `frames` samples: the window restarts after the gap.
    public func skip(frames: Int) {
        window.skip(frames: frames)
        steady?.reset()
    }
}
