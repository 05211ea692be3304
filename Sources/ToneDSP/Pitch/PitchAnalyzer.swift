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

    /// Throws when `hopFrames` is outside `HopWindow.hopRange(size:)` of the window.
    public init(detector: PitchDetector, hopFrames: Int, temperament: EqualTemperament = EqualTemperament()) throws(ToneEstimator.SetupError) {
        self.detector = detector
        self.temperament = temperament
        window = try HopWindow(size: detector.configuration.frameSize, hopFrames: hopFrames)
    }

    public func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void) {
        let rate = detector.configuration.sampleRateHz
        window.push(input) { frame, streamFrames in
            // Silence: what `estimate` finds in a window of zeros, without the work.
            let reading = frame.map(detector.estimate) ?? ToneReading()
            report(ToneReport(timeSeconds: Double(streamFrames) / rate, reading: reading,
                              pitch: PitchReading(frequencyHz: reading.frequencyHz, temperament: temperament)))
        }
    }

    /// The stream lost `frames` samples: the window restarts after the gap.
    public func skip(frames: Int) {
        window.skip(frames: frames)
    }
}
