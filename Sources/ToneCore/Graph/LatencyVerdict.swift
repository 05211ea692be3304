/// A path's measured latency judged against the latency JACK reports for it.
///
/// The loop out → path → in takes whole periods more than the path adds
/// (JACK's cycle: one, two when a client on the path runs before ours), so
/// the path's own latency is the round trip minus the most whole periods
/// that leave it at or above the reported minimum (at least one). A
/// misreport of a whole number of periods cannot be told from those.
/// Other sources feeding the path (a capture port) widen the reported
/// range: the path is reported right when its latency lies inside it.
public struct LatencyVerdict: Sendable, Equatable {
    /// A difference above this many frames is a misreport.
    public static let toleranceFrames = 1.0

    public var roundTripFrames: Double
    public var periodFrames: Int
    public var reportedFrames: ClosedRange<Int>
    /// Whole periods taken off the round trip.
    public var cyclePeriods: Int
    /// The path's own latency.
    public var measuredFrames: Double
    /// Measured minus the nearest end of the reported range (0 inside it).
    public var differenceFrames: Double
    public var misreported: Bool { abs(differenceFrames) > Self.toleranceFrames }

    public init(roundTripFrames: Double, periodFrames: Int, reportedFrames: ClosedRange<Int>) {
        self.roundTripFrames = roundTripFrames
        self.periodFrames = periodFrames
        self.reportedFrames = reportedFrames
        let period = Double(max(1, periodFrames))
        let cycles = max(1, ((roundTripFrames - Double(reportedFrames.lowerBound) + 0.5) / period).rounded(.down))
        cyclePeriods = Int(cycles)
        measuredFrames = roundTripFrames - cycles * period
        let nearest = min(max(measuredFrames, Double(reportedFrames.lowerBound)), Double(reportedFrames.upperBound))
        differenceFrames = measuredFrames - nearest
    }
}
