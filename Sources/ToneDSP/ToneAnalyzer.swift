/// Slides a window over a stream and runs the detector every hop.
///
/// The same object serves a file (`tonenode analyze`) and the live node's
/// worker, so what is tested offline is what runs live.
///
/// Worker only.
public final class ToneAnalyzer {
    public let estimator: ToneEstimator
    public let hopFrames: Int
    private let history: UnsafeMutablePointer<Float>   // circular, fftSize long
    private let frame: UnsafeMutablePointer<Float>     // linearised window
    private var writeIndex = 0
    private var filled = 0
    private var sinceReport = 0
    /// Frames of stream time seen, gaps included.
    public private(set) var streamFrames = 0

    public init(estimator: ToneEstimator, hopFrames: Int) {
        precondition(hopFrames >= 1 && hopFrames <= estimator.configuration.fftSize)
        self.estimator = estimator
        self.hopFrames = hopFrames
        let n = estimator.configuration.fftSize
        history = .allocate(capacity: n)
        history.initialize(repeating: 0, count: n)
        frame = .allocate(capacity: n)
    }

    deinit {
        history.deallocate()
        frame.deallocate()
    }

    /// Feeds samples; `report` is called once per completed hop (after the
    /// first full window), in order.
    public func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void) {
        let n = estimator.configuration.fftSize
        let rate = estimator.configuration.sampleRateHz
        for sample in input {
            history[writeIndex] = sample
            writeIndex = (writeIndex + 1) & (n - 1)    // safe: fftSize is a power of two
            streamFrames += 1
            if filled < n { filled += 1 }
            sinceReport += 1
            if filled == n && sinceReport >= hopFrames {
                sinceReport = 0
                // Oldest sample first.
                let tail = n - writeIndex
                frame.update(from: history + writeIndex, count: tail)
                (frame + tail).update(from: history, count: writeIndex)
                let reading = estimator.estimate(UnsafeBufferPointer(start: frame, count: n))
                report(ToneReport(timeSeconds: Double(streamFrames) / rate, reading: reading))
            }
        }
    }

    /// The stream lost `frames` samples: the window restarts after the gap so
    /// no window ever spans it, and the clock skips ahead.
    public func skip(frames: Int) {
        streamFrames += frames
        filled = 0
        sinceReport = 0
    }
}
