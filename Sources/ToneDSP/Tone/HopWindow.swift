/// A window sliding over a stream: keeps the newest `size` samples and hands
/// them over, oldest first, once per `hopFrames` after the first full window.
/// After a gap it starts again from empty, so no window ever spans one.
///
/// The analysers (`ToneAnalyzer`, `PitchAnalyzer`) share it. Worker only.
public final class HopWindow {
    public let size: Int
    public let hopFrames: Int
    /// Circular, `size` long, and mirrored: `2 · size` floats where every
    /// sample is stored at `i` and `i + size`, so the window, oldest first,
    /// is always the contiguous `size` floats from `writeIndex`. Writing
    /// each hop twice (2 · hop floats) costs less than linearising the whole
    /// window each hop (a 16 KB copy at 4096 points, 4 % of a live node).
    private let history: UnsafeMutablePointer<Float>
    private var writeIndex = 0
    private var filled = 0
    private var sinceReport = 0
    /// Newest samples that are all ±0 (a window of them is silence).
    private var zeroRun = 0
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
        history = .allocate(capacity: 2 * size)
        history.initialize(repeating: 0, count: 2 * size)
    }

    deinit {
        history.deallocate()
    }

    /// Feeds samples; `window(frame, streamFrames)` is called once per
    /// completed hop, in order, with the window (do not let the pointer
    /// escape) and the stream position of its end. `frame` is nil when the
    /// whole window is digital silence (every sample ±0): a silent input (a
    /// muted source, an unconnected port) then costs no copy and no analysis.
    public func push(_ input: UnsafeBufferPointer<Float>, window: (UnsafeBufferPointer<Float>?, Int) -> Void) {
        guard var source = input.baseAddress else { return }
        let n = size
        var remaining = input.count
        while remaining > 0 {
            // Whole runs up to the next report and the ring's end: a copy, not a loop per sample.
            let untilDue = filled < n ? max(n - filled, hopFrames - sinceReport) : hopFrames - sinceReport
            let chunk = min(remaining, untilDue, n - writeIndex)
            (history + writeIndex).update(from: source, count: chunk)
            (history + n + writeIndex).update(from: source, count: chunk)
            // The newest non-zero sample ends the run of zeros (searched from the end: short for audio).
            var newestNonZero = -1
            for index in stride(from: chunk - 1, through: 0, by: -1) where source[index] != 0 {
                newestNonZero = index
                break
            }
            zeroRun = newestNonZero < 0 ? zeroRun + chunk : chunk - 1 - newestNonZero
            writeIndex = (writeIndex + chunk) & (n - 1)    // safe: size is a power of two
            streamFrames += chunk
            filled = min(n, filled + chunk)
            sinceReport += chunk
            source += chunk
            remaining -= chunk
            if filled == n && sinceReport >= hopFrames {
                sinceReport = 0
                if zeroRun >= n {
                    window(nil, streamFrames)
                    continue
                }
                // Oldest sample first: the mirror makes it one run.
                window(UnsafeBufferPointer(start: history + writeIndex, count: n), streamFrames)
            }
        }
    }

    /// The stream lost `frames` samples: the window restarts after the gap and
    /// the clock skips ahead.
    public func skip(frames: Int) {
        streamFrames += frames
        filled = 0
        sinceReport = 0
        zeroRun = 0
    }
}
