/// Tells which analysis windows may span a discontinuity in the input: an
/// xrun (a period lost, late or run twice) or a change of the server's
/// period (PipeWire's quantum; `jack_bufsize` on jackd2). Such a window is
/// no reading of the signal (around forced quantum changes a 997 Hz tone
/// read 997.8, 1000.4 and 1002.7 Hz at an SNR of 3.5–7 dB), so the worker
/// withholds its report. Worker only.
///
/// Where in the stream a discontinuity lies is bounded by when its counter
/// was seen to change: each look reads the frames captured so far, then the
/// counters, then the frames again. A change seen at this look and not at
/// the last lies after what was captured before the last look's counters
/// were read and before what is captured after this look's; a window that
/// overlaps that span is withheld. Every frame of a window has been captured
/// before its report is made, and the counter of a discontinuity among them
/// (xruns counted at the start of the callback after the gap, the period at
/// JACK's buffer-size callback, both before that period's capture) had
/// changed by then, so a look at the report sees it.
struct DiscontinuityGate {
    private var seen: (xruns: Int, periodChanges: Int) = (0, 0)
    /// Captured frames before the last look read the counters.
    private var lookedFrom = 0
    /// Stream spans that may hold a discontinuity, newest last (a few kept).
    private var spans: [Range<Int>] = []
    private static let keptSpans = 8

    /// Whether the window `frames` (stream frames) spans no discontinuity seen so far.
    /// - Parameters:
    ///   - capturedFrames: the stream frames captured so far (read twice, around the counters).
    ///   - counters: the bridge's xrun and period-change counts.
    mutating func admits(_ frames: Range<Int>, counters: () -> (xruns: Int, periodChanges: Int),
                         capturedFrames: () -> Int) -> Bool {
        let before = capturedFrames()
        let now = counters()
        if now != seen {
            spans.append(lookedFrom..<max(lookedFrom, capturedFrames()) + 1)
            if spans.count > Self.keptSpans { spans.removeFirst() }
            seen = now
        }
        lookedFrom = before
        return !spans.contains { $0.overlaps(frames) }
    }
}
