import ToneJack

/// What the worker says, at the end of each wake, about the node's health:
/// a `.trouble` when the xruns or ring overflows have changed since it last
/// said them (dropped frames alone are said with the next change, not on
/// their own), and, when the bridge profiles its callback, a
/// `.callbackProfile` every `profileIntervalSeconds`.
///
/// Worker only (a value the worker keeps).
struct TroubleNotices {
    /// Seconds between `.callbackProfile` events when the bridge profiles.
    static let profileIntervalSeconds = 10.0

    private var saidXruns = 0
    private var saidOverflows = 0
    private var saidPeriodChanges = 0
    /// When the last profile was said (or the worker started); nil: the bridge does not profile.
    private var lastProfileNs: UInt64?

    /// - Parameters:
    ///   - profiles: whether the bridge times its callback (`--profile-callback`).
    ///   - nowNs: the monotonic clock at the worker's start; the first profile is due an interval later.
    init(profiles: Bool, nowNs: UInt64) {
        lastProfileNs = profiles ? nowNs : nil
    }

    /// Whether the bridge profiles its callback (only then `profile` has anything to say).
    var profiles: Bool { lastProfileNs != nil }

    /// A `.periodChanged` if the server's period changed since the last one said.
    mutating func periodChange(changes: Int, periodFrames: Int) -> NodeEvent? {
        guard changes != saidPeriodChanges else { return nil }
        saidPeriodChanges = changes
        return .periodChanged(periodFrames: periodFrames)
    }

    /// A `.trouble` for these totals if its xruns or overflows are new.
    mutating func trouble(_ totals: (xruns: Int, overflows: Int, droppedFrames: Int)) -> NodeEvent? {
        guard totals.xruns != saidXruns || totals.overflows != saidOverflows else { return nil }
        saidXruns = totals.xruns
        saidOverflows = totals.overflows
        return .trouble(xruns: totals.xruns, overflows: totals.overflows, droppedFrames: totals.droppedFrames)
    }

    /// A `.callbackProfile` when one is due at `nowNs`: `current` is asked
    /// only then (it copies the histogram); nil from it says nothing and
    /// leaves the profile due.
    mutating func profile(nowNs: UInt64, current: () -> CallbackProfile?) -> NodeEvent? {
        guard let lastNs = lastProfileNs, Double(nowNs - lastNs) >= Self.profileIntervalSeconds * 1e9,
              let profile = current() else { return nil }
        lastProfileNs = nowNs
        return .callbackProfile(profile)
    }
}
