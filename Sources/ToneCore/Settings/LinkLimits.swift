import Foundation
import ToneDSP

/// The limits `tonenode link` judges a link against, and the one place their
/// own values are checked (the CLI's `validate()` asks `problem`).
///
/// Jitter is the spread of the latency readings, maximum minus minimum.
public struct LinkLimits: Sendable, Equatable {
    public var maxLatencyMs: Double?
    public var maxJitterMs: Double?
    public var maxDropouts: Int?

    public init(maxLatencyMs: Double? = nil, maxJitterMs: Double? = nil, maxDropouts: Int? = nil) {
        self.maxLatencyMs = maxLatencyMs
        self.maxJitterMs = maxJitterMs
        self.maxDropouts = maxDropouts
    }

    /// The first limit that is not a usable value, naming its option.
    public var problem: SettingsProblem? {
        typealias Link = Parameters.Link
        if let maxLatencyMs, !(maxLatencyMs.isFinite && maxLatencyMs > 0) {
            return SettingsProblem(.init(Link.maxLatencyMs), .unmet("must be a positive number of milliseconds"))
        }
        if let maxJitterMs, !(maxJitterMs.isFinite && maxJitterMs >= 0) {
            return SettingsProblem(.init(Link.maxJitterMs), .unmet("must be zero or a positive number of milliseconds"))
        }
        if let maxDropouts, maxDropouts < 0 { return SettingsProblem(.init(Link.maxDropouts), .unmet("must be zero or more")) }
        return nil
    }

    /// What the run broke, one sentence each (empty: within every limit).
    /// A round trip is judged on latency and jitter; both kinds on dropouts.
    public func violations(_ summary: LinkSummary, dropouts: Int) -> [String] {
        var broken: [String] = []
        if let maxLatencyMs, let spread = summary.latencyFrames, summary.milliseconds(spread.maximum) > maxLatencyMs {
            broken.append(String(format: "latency reached %.3f ms (limit %g ms)", summary.milliseconds(spread.maximum), maxLatencyMs))
        }
        if let maxJitterMs, let spread = summary.latencyFrames,
           summary.milliseconds(spread.maximum - spread.minimum) > maxJitterMs {
            broken.append(String(format: "jitter %.3f ms (limit %g ms)",
                                 summary.milliseconds(spread.maximum - spread.minimum), maxJitterMs))
        }
        if let maxDropouts, dropouts > maxDropouts {
            broken.append("\(dropouts) dropout(s) (limit \(maxDropouts))")
        }
        if (maxLatencyMs != nil || maxJitterMs != nil) && summary.latencyFrames == nil {
            broken.append("the probe never came back, so there is no latency to judge")
        }
        return broken
    }
}
