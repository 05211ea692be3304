/// Slides a window over a stream and runs the pitch detector every hop; each
/// report carries the fundamental in `reading` and its note in `pitch`.
///
/// Serves `tonenode analyze --mode pitch` and the live worker alike.
///
/// Worker only.
public final class PitchAnalyzer: StreamAnalyzer {
    public let detector: PitchDetector
    public let hopFrames: Int
    public let temperament: EqualTemperament
    private let history: UnsafeMutablePointer<Float>   // circular, frameSize long
    private let frame: UnsafeMutablePointer<Float>     // linearised window
    private var writeIndex = 0
    private var filled = 0
    private var sinceReport = 0
    /// Frames of stream time seen, gaps included.
    public private(set) var streamFrames = 0

    public init(detector: PitchDetector, hopFrames: Int, temperament: EqualTemperament = EqualTemperament()) {
        precondition(hopFrames >= 1 && hopFrames <= detector.configuration.frameSize)
        self.detector = detector
        self.hopFrames = hopFrames
        self.temperament = temperament
        let n = detector.configuration.frameSize
        history = .allocate(capacity: n)
        history.initialize(repeating: 0, count: n)
        frame = .allocate(capacity: n)
    }

    deinit {
        history.deallocate()
        frame.deallocate()
    }

    public func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void) {
        let n = detector.configuration.frameSize
        let rate = detector.configuration.sampleRateHz
        for sample in input {
            history[writeIndex] = sample
            writeIndex = (writeIndex + 1) & (n - 1)    // safe: frameSize is a power of two
            streamFrames += 1
            if filled < n { filled += 1 }
            sinceReport += 1
            if filled == n && sinceReport >= hopFrames {
                sinceReport = 0
                let tail = n - writeIndex
                frame.update(from: history + writeIndex, count: tail)
                (frame + tail).update(from: history, count: writeIndex)
                let reading = detector.estimate(UnsafeBufferPointer(start: frame, count: n))
                report(ToneReport(timeSeconds: Double(streamFrames) / rate, reading: reading,
                                  pitch: PitchReading(frequencyHz: reading.frequencyHz, temperament: temperament)))
            }
        }
    }

    /// The stream lost `frames` samples: the window restarts after the gap.
    public func skip(frames: Int) {
        streamFrames += frames
        filled = 0
        sinceReport = 0
    }
}
