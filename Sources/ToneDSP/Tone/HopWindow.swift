/// A window sliding over a stream: keeps the newest `size` samples and hands
/// them over, oldest first, once per `hopFrames` after the first full window.
/// After a gap it starts again from empty, so no window ever spans one.
///
/// The analysers (`ToneAnalyzer`, `PitchAnalyzer`) share it. Worker only.
public final class HopWindow {
    public let size: Int
    public let hopFrames: Int
    private let history: UnsafeMutablePointer<Float>   // circular, `size` long
    private let frame: UnsafeMutablePointer<Float>     // linearised window
    private var writeIndex = 0
    private var filled = 0
    private var sinceReport = 0
    /// Frames of stream time seen, gaps included.
    public private(set) var streamFrames = 0

    /// Hops a window of `size` frames can take: a report at least every window.
    public static func hopRange(size: Int) -> ClosedRange<Int> { 1...max(1, size) }

    /// Throws for values a caller let through (settings are checked before
    /// this, so a person never meets these sentences).
    /// - Parameters:
    ///   - size: a power of two.
    ///   - hopFrames: in `hopRange(size:)`.
    public init(size: Int, hopFrames: Int) throws(ToneEstimator.SetupError) {
        guard size > 0, size & (size - 1) == 0 else {
            throw .invalid("the window size \(size) must be a power of two")
        }
        guard Self.hopRange(size: size).contains(hopFrames) else {
            throw .invalid("the hop \(hopFrames) must be between 1 and the window size \(size)")
        }
        self.size = size
        self.hopFrames = hopFrames
        history = .allocate(capacity: size)
        history.initialize(repeating: 0, count: size)
        frame = .allocate(capacity: size)
    }

    deinit {
        history.deallocate()
        frame.deallocate()
    }

    /// Feeds samples; `window(frame, streamFrames)` is called once per
    /// completed hop, in order, with the window (do not let the pointer
    /// escape) and the stream position of its end.
    public func push(_ input: UnsafeBufferPointer<Float>, window: (UnsafeBufferPointer<Float>, Int) -> Void) {
        let n = size
        for sample in input {
            history[writeIndex] = sample
            writeIndex = (writeIndex + 1) & (n - 1)    // safe: size is a power of two
            streamFrames += 1
            if filled < n { filled += 1 }
            sinceReport += 1
            if filled == n && sinceReport >= hopFrames {
                sinceReport = 0
                // Oldest sample first.
                let tail = n - writeIndex
                frame.update(from: history + writeIndex, count: tail)
                (frame + tail).update(from: history, count: writeIndex)
                window(UnsafeBufferPointer(start: frame, count: n), streamFrames)
            }
        }
    }

    /// The stream lost `frames` samples: the window restarts after the gap and
    /// the clock skips ahead.
    public func skip(frames: Int) {
        streamFrames += frames
        filled = 0
        sinceReport = 0
    }
}
