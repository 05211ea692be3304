/// A path's measured latency judged against the latency JACK reports for it.
///
/// The loop out → path → in takes one period more than the path adds:
/// jack2 runs the clients of a chain in the order of its connections, and
/// the connection that closes the loop (ours, made last) hands its buffer on
/// to the next cycle, whichever client joined the server first. Measured
/// here with jalv hosting x42 dpl (64 frames) and swh's limiter (240) at 64
/// frames a period, both orders of the chain and of joining: round trips 128,
/// 304 and 368 frames, each one period plus the path. So the path's own
/// latency is the round trip minus one period, also when it is longer than a
/// period and reported as 0. (A path whose own connections close a loop
/// elsewhere in the graph would take a period more.) Other sources feeding
/// the path (a capture port) widen the reported range: the path is reported
/// right when its latency lies inside it.
public struct LatencyVerdict: Sendable, Equatable {
    /// A difference above this many frames is a misreport.
    public static let toleranceFrames = 1.0

    public var roundTripFrames: Double
    public var periodFrames: Int
    public var reportedFrames: ClosedRange<Int>
    /// Whole periods taken off the round trip: JACK's one for the loop.
    public let cyclePeriods = 1
    /// The path's own latency.
    public var measuredFrames: Double
    /// Measured minus the nearest end of the reported range (0 inside it).
    public var differenceFrames: Double
    public var misreported: Bool { abs(differenceFrames) > Self.toleranceFrames }

    public init(roundTripFrames: Double, periodFrames: Int, reportedFrames: ClosedRange<Int>) {
        self.roundTripFrames = roundTripFrames
        self.periodFrames = periodFrames
        self.reportedFrames = reportedFrames
        measuredFrames = roundTripFrames - Double(cyclePeriods * periodFrames)
        let nearest = min(max(measuredFrames, Double(reportedFrames.lowerBound)), Double(reportedFrames.upperBound))
        differenceFrames = measuredFrames - nearest
    }
}
