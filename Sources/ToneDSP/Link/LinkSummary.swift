/// What a run of `LinkReading`s adds up to: latency and its jitter, a
/// histogram, the clock drift with its resolution, and when the bridge's
/// resampler settled.
///
/// Any thread (a value computed from the analyzer's lists).
public struct LinkSummary: Sendable, Equatable {
    public struct Spread: Sendable, Equatable {
        public var minimum: Double
        public var median: Double
        public var p99: Double
        public var maximum: Double
    }

    /// Drift of the receiving clock against the sending one, from the slope
    /// of the one-way delay (frames of delay gained per frame of time).
    public struct Drift: Sendable, Equatable {
        public var ppm: Double
        /// Standard error of `ppm` over this run.
        public var standardErrorPPM: Double
        /// Scatter of one reading's delay about the fitted line (frames).
        public var readingScatterFrames: Double
        /// The resolution (one standard error) averaging over 1 s and 10 s
        /// of readings of this scatter: σ·√(12·h/T³)/rate, h the reading interval.
        public var resolutionPPMAt1s: Double
        public var resolutionPPMAt10s: Double
        /// Seconds from the first reading until every later one stays within
        /// `settleToleranceFrames` of the line fitted to the run's second half.
        public var settledAfterSeconds: Double
    }

    public var sampleRateHz: Double
    public var readings: Int
    public var readingsWithProbe: Int
    /// Latency in frames (min / median / p99 / max of the readings).
    public var latencyFrames: Spread?
    /// Ten equal bins from the minimum to the maximum latency (frames): counts.
    public var histogram: [Int]
    public var drift: Drift?
    public var levelDBFS: Double?
    public var gainDB: Double?

    public static let settleToleranceFrames = 0.05

    public init(readings all: [LinkReading], sampleRateHz: Double, withDrift: Bool) {
        self.sampleRateHz = sampleRateHz
        readings = all.count
        let good = all.filter(\.hasProbe)
        readingsWithProbe = good.count
        let latencies = good.map(\.latencyFrames)
        let sorted = latencies.sorted()
        if let first = sorted.first, let last = sorted.last {
            let p99 = sorted[min(sorted.count - 1, Int((0.99 * Double(sorted.count - 1)).rounded(.up)))]
            latencyFrames = Spread(minimum: first, median: sorted[sorted.count / 2], p99: p99, maximum: last)
            var bins = [Int](repeating: 0, count: 10)
            let width = (last - first) / 10
            for value in latencies {
                let bin = width > 0 ? min(9, Int((value - first) / width)) : 0
                bins[bin] += 1
            }
            histogram = bins
            levelDBFS = good.map(\.levelDBFS).sorted()[good.count / 2]
            gainDB = good.map(\.gainDB).sorted()[good.count / 2]
        } else {
            latencyFrames = nil
            histogram = []
        }
        drift = withDrift ? Self.drift(good, sampleRateHz: sampleRateHz) : nil
    }

    /// Milliseconds for a figure in frames.
    public func milliseconds(_ frames: Double) -> Double { frames / sampleRateHz * 1000 }

    static func drift(_ good: [LinkReading], sampleRateHz: Double) -> Drift? {
        guard good.count >= 4 else { return nil }
        let secondHalf = Array(good[(good.count / 2)...])
        guard let line = fit(good), let settledLine = fit(secondHalf) else { return nil }
        var settled = good.first?.timeSeconds ?? 0
        for reading in good {
            let expected = settledLine.intercept + settledLine.slope * reading.timeSeconds
            if abs(reading.latencyFrames - expected) > settleToleranceFrames { settled = reading.timeSeconds }
        }
        let start = good.first?.timeSeconds ?? 0
        let interval = (good.last!.timeSeconds - start) / Double(good.count - 1)   // safe: count ≥ 4
        func resolution(_ seconds: Double) -> Double {
            (line.scatter * (12 * interval / (seconds * seconds * seconds)).squareRoot() / sampleRateHz) * 1e6
        }
        return Drift(ppm: line.slope / sampleRateHz * 1e6, standardErrorPPM: line.slopeError / sampleRateHz * 1e6,
                     readingScatterFrames: line.scatter,
                     resolutionPPMAt1s: resolution(1), resolutionPPMAt10s: resolution(10),
                     settledAfterSeconds: settled - start)
    }

    /// Least squares of latency (frames) on time (s).
    static func fit(_ points: [LinkReading]) -> (slope: Double, intercept: Double, scatter: Double, slopeError: Double)? {
        let n = Double(points.count)
        guard points.count >= 3 else { return nil }
        let meanT = points.reduce(0) { $0 + $1.timeSeconds } / n
        let meanL = points.reduce(0) { $0 + $1.latencyFrames } / n
        var stt = 0.0, stl = 0.0
        for point in points {
            stt += (point.timeSeconds - meanT) * (point.timeSeconds - meanT)
            stl += (point.timeSeconds - meanT) * (point.latencyFrames - meanL)
        }
        guard stt > 0 else { return nil }
        let slope = stl / stt
        let intercept = meanL - slope * meanT
        var sse = 0.0
        for point in points {
            let residual = point.latencyFrames - (intercept + slope * point.timeSeconds)
            sse += residual * residual
        }
        let scatter = (sse / (n - 2)).squareRoot()
        return (slope, intercept, scatter, scatter / stt.squareRoot())
    }
}
