/// THD+N and gain of a chain versus level (`measure --what levels`).
public struct LevelSweep: Sendable {
    /// One step of the level sweep.
    public struct Point: Sendable, Equatable {
        /// Peak level played, dBFS.
        public var levelDBFS: Double
        /// Level of the returned tone against the level played.
        public var gainDB: Double
        /// Everything but the fitted sine, against the sine (full band, DC removed).
        public var thdPlusNoiseDB: Double
        public var thdPlusNoisePercent: Double { 100 * pow10(thdPlusNoiseDB / 20) }
        /// Gain against the gain of the quietest step (negative: compression).
        public var compressionDB: Double
    }

    public var toneFrequencyHz: Double
    public var points: [Point]

    /// The level where THD+N first rises through 1 % (−40 dB) from below,
    /// interpolated between steps; nil if it never does (or is above 1 % from the start).
    public var onePercentLevelDBFS: Double? { crossing(ofTHDPlusNoiseDB: -40) }

    /// The level where the gain first falls 1 dB below the quietest step's.
    public var oneDBCompressionLevelDBFS: Double? {
        for (a, b) in zip(points, points.dropFirst()) where a.compressionDB > -1 && b.compressionDB <= -1 {
            return a.levelDBFS + (b.levelDBFS - a.levelDBFS) * (-1 - a.compressionDB) / (b.compressionDB - a.compressionDB)
        }
        return nil
    }

    /// The level where THD+N first rises through `threshold`, interpolated in dB.
    public func crossing(ofTHDPlusNoiseDB threshold: Double) -> Double? {
        for (a, b) in zip(points, points.dropFirst()) where a.thdPlusNoiseDB < threshold && b.thdPlusNoiseDB >= threshold {
            return a.levelDBFS + (b.levelDBFS - a.levelDBFS) * (threshold - a.thdPlusNoiseDB) / (b.thdPlusNoiseDB - a.thdPlusNoiseDB)
        }
        return nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
