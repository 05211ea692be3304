import CJack
import Foundation

/// How long the process callback took, from its entry to its exit on the
/// JACK thread (`--profile-callback`): a snapshot of the shim's histogram of
/// 1 µs bins, with the period it has to fit in.
///
/// Made by `ProcessBridge.callbackProfile` on any thread; a value.
public struct CallbackProfile: Sendable, Equatable {
    /// Callbacks measured.
    public var count: Int
    public var totalNanoseconds: UInt64
    public var worstNanoseconds: UInt64
    /// Callbacks per 1 µs of duration (`bins[k]`: k µs up to k+1 µs); the last
    /// bin also holds every longer one.
    public var bins: [UInt64]
    /// The period the callback has to finish in.
    public var periodFrames: Int
    public var sampleRateHz: Int

    public init(count: Int, totalNanoseconds: UInt64, worstNanoseconds: UInt64, bins: [UInt64],
                periodFrames: Int, sampleRateHz: Int) {
        self.count = count
        self.totalNanoseconds = totalNanoseconds
        self.worstNanoseconds = worstNanoseconds
        self.bins = bins
        self.periodFrames = periodFrames
        self.sampleRateHz = sampleRateHz
    }

    public var periodMicroseconds: Double {
        sampleRateHz > 0 ? Double(periodFrames) / Double(sampleRateHz) * 1e6 : 0
    }
    public var meanMicroseconds: Double { count > 0 ? Double(totalNanoseconds) / Double(count) / 1000 : 0 }
    public var worstMicroseconds: Double { Double(worstNanoseconds) / 1000 }

    /// The upper edge (µs) of the bin holding the `fraction` quantile (0…1).
    public func quantileMicroseconds(_ fraction: Double) -> Double {
        guard count > 0 else { return 0 }
        let rank = UInt64((fraction * Double(count)).rounded(.up))
        var seen: UInt64 = 0
        for (index, callbacks) in bins.enumerated() {
            seen += callbacks
            if seen >= max(1, rank) { return Double(index + 1) }
        }
        return Double(bins.count)
    }

    /// The callbacks that took `microseconds` or more, counted in whole bins
    /// from the bin `microseconds` begins (so pass a whole number).
    public func callbacks(fromMicroseconds microseconds: Int) -> UInt64 {
        bins.dropFirst(max(0, microseconds)).reduce(0, +)
    }

    /// 2 % of the period in whole µs, rounded up: the budget the summary counts against.
    public var budgetMicroseconds: Int { Int((periodMicroseconds * 0.02).rounded(.up)) }

    /// A share of the period in per cent.
    public func percentOfPeriod(_ microseconds: Double) -> Double {
        periodMicroseconds > 0 ? microseconds / periodMicroseconds * 100 : 0
    }

    /// One line, the same as `Benchmarks/callback-client` prints for its own callback.
    public var summary: String {
        String(format: "callback: %d periods of %.1f µs: mean %.1f µs (%.1f %%), p99 ≤ %.1f µs, worst %.1f µs (%.1f %%), "
               + "%llu of %d µs (2 %%) or more",
               count, periodMicroseconds, meanMicroseconds, percentOfPeriod(meanMicroseconds),
               quantileMicroseconds(0.99), worstMicroseconds, percentOfPeriod(worstMicroseconds),
               callbacks(fromMicroseconds: budgetMicroseconds), budgetMicroseconds)
    }

    /// Reads the shim's histogram (any thread, while the callback runs).
    static func read(_ profile: UnsafePointer<tn_callback_profile>, periodFrames: Int,
                     sampleRateHz: Int) -> CallbackProfile {
        // Count first (acquiring): every callback it counts is in the bins and totals.
        let count = Int(tn_profile_count(profile))
        return CallbackProfile(count: count, totalNanoseconds: tn_profile_total_ns(profile),
                               worstNanoseconds: tn_profile_worst_ns(profile),
                               bins: (0..<UInt32(TN_PROFILE_BINS)).map { tn_profile_bin(profile, $0) },
                               periodFrames: periodFrames, sampleRateHz: sampleRateHz)
    }
}
