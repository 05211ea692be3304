/// How much of each channel's output comes back on every other channel's
/// input (`measure --channels N --what crosstalk`).
public struct CrosstalkMatrix: Sendable {
    /// One path's leak at one frequency.
    public struct Point: Sendable, Equatable {
        public var frequencyHz: Double
        /// Input `measured` against input `driven` while output `driven` plays alone, dB.
        public var levelDB: Double
    }

    /// One driven output read on one input.
    public struct Path: Sendable {
        public var driven: Int
        public var measured: Int
        public var points: [Point]
        /// The loudest point: the path's worst crosstalk.
        public var worstDB: Double { points.map(\.levelDB).max() ?? -.infinity }
    }

    public var channels: Int
    /// Every path with `driven != measured`.
    public var paths: [Path]

    public func path(driven: Int, measured: Int) -> Path? {
        paths.first { $0.driven == driven && $0.measured == measured }
    }
}
