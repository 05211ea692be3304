/// When the analysis worker wakes: its regimes as numbers, a value with no
/// thread, clock or bridge of its own (the worker hands it the time).
///
/// - **settling**: until the first settled report, every
///   `settlingWakeMilliseconds` (a hop, if shorter), so the first reading
///   goes out soon after its window is complete;
/// - **sound**: once a hop (at most `maximumWaitMilliseconds`), or once per
///   the sink's batch when its reader waits that long anyway
///   (`ReportSink.batchSeconds`: a regular file's 0.1 s; each wake costs
///   more than a hop's analysis), at most `maximumWaitMilliseconds` too;
/// - **idle** (every input digital silence for a whole window): every
///   `idleWakeMilliseconds`, but by the time the sink's held lines are due;
///   sound wakes it sooner (the process callback posts, once);
/// - **stalled** (no period for a while): at least as often as the
///   `StalledServerWatch` looks at the server (`nextWakeNs`'s `atMostNs`).
///
/// With a sink's stop time (`--duration`) no rest reaches more than a hop
/// past it, so the node ends on time, and no rest is shorter than a hop
/// (but the settling one).
struct WakeSchedule: Equatable {
    /// How the worker rests until its next wake.
    enum Regime: Equatable {
        case settling, sound, idle

        /// Idle inputs rest longest; before the first settled report, the shortest.
        init(idle: Bool, settledReported: Bool) {
            self = idle ? .idle : settledReported ? .sound : .settling
        }
    }

    /// The longest rest while sound arrives: caps the hop and the sink's batch.
    static let maximumWaitMilliseconds = 100
    /// Until the first settled report: wakes at least this often, so the
    /// first reading goes out soon after its window is complete.
    static let settlingWakeMilliseconds = 2
    /// While every input is silent: wakes this often (or once a hop, when
    /// longer) to publish the silent hops' reports; sound wakes it sooner.
    static let idleWakeMilliseconds = 1000

    /// A hop of audio, at most `maximumWaitMilliseconds`, at least 0.1 ms.
    let hopNs: UInt64
    let settlingNs: UInt64
    let idleNs: UInt64

    /// - Parameter hopSeconds: the analyzers' hop (the worker wakes once
    ///   per hop while sound arrives).
    init(hopSeconds: Double) {
        hopNs = UInt64(max(1e5, min(hopSeconds, Double(Self.maximumWaitMilliseconds) / 1000) * 1e9))
        settlingNs = min(hopNs, UInt64(Self.settlingWakeMilliseconds) * 1_000_000)
        idleNs = max(hopNs, UInt64(Self.idleWakeMilliseconds) * 1_000_000)
    }

    /// The rest before the next wake in `regime`.
    /// - Parameters:
    ///   - sink: the worker's sink, whose pacing it reads (nil: none, so
    ///     only the regime counts).
    ///   - streamSeconds: the stream time every channel has been analysed
    ///     to, offset included (as the sink's `stopAfterSeconds` counts).
    func restNs(_ regime: Regime, sink: (any ReportSink)?, streamSeconds: Double?) -> UInt64 {
        switch regime {
        case .settling: settlingNs
        case .sound: soundRestNs(sink: sink, streamSeconds: streamSeconds)
        case .idle: idleRestNs(sink: sink, streamSeconds: streamSeconds)
        }
    }

    /// The next wake: fixed steps from the wake planned at `plannedNs`, so
    /// the wakes do not drift; never more than a rest ahead of `nowNs`
    /// (woken early by sound); after a long stall, a rest from now. At most
    /// `atMostNs` from now (the stalled server's looks), when given.
    static func nextWakeNs(after plannedNs: UInt64, restNs: UInt64, nowNs: UInt64, atMostNs: UInt64?) -> UInt64 {
        let stepNs = plannedNs + restNs
        let nextNs = stepNs > nowNs && stepNs <= nowNs + restNs ? stepNs : nowNs + restNs
        guard let atMostNs else { return nextNs }
        return min(nextNs, nowNs + atMostNs)
    }

    /// The bridge wait until `wakeNs`, rounded up to whole milliseconds; nil
    /// when that time has come (no wait).
    static func waitMilliseconds(until wakeNs: UInt64, nowNs: UInt64) -> Int? {
        wakeNs > nowNs ? Int((wakeNs - nowNs + 999_999) / 1_000_000) : nil
    }

    /// An idle worker's rest: `idleNs`, but it wakes by the time the sink's
    /// held lines are due (a regular file written in blocks: they wait a
    /// tenth of a second, not a rest) and by the time the stream reaches the
    /// sink's stop time (`--duration` on a silent input ends on time, not up
    /// to a rest late), and never rests less than a hop.
    private func idleRestNs(sink: (any ReportSink)?, streamSeconds: Double?) -> UInt64 {
        var restNs = idleNs
        if let dueSeconds = sink?.secondsUntilFlushDue {
            restNs = max(hopNs, min(restNs, UInt64(max(0, dueSeconds) * 1e9)))
        }
        return endingOnTime(restNs, sink: sink, streamSeconds: streamSeconds)
    }

    /// The rest of a settled worker while sound arrives: a hop, or the
    /// sink's batch (`ReportSink.batchSeconds`, at most
    /// `maximumWaitMilliseconds`) when its reader waits that long anyway;
    /// never past the sink's stop time.
    private func soundRestNs(sink: (any ReportSink)?, streamSeconds: Double?) -> UInt64 {
        guard let batchSeconds = sink?.batchSeconds, batchSeconds > 0 else { return hopNs }
        let batchNs = UInt64(min(batchSeconds, Double(Self.maximumWaitMilliseconds) / 1000) * 1e9)
        return endingOnTime(max(hopNs, batchNs), sink: sink, streamSeconds: streamSeconds)
    }

    /// `restNs`, but no further than a hop past the sink's stop time
    /// (`--duration` ends on time, not up to a rest late), and never less than a hop.
    private func endingOnTime(_ restNs: UInt64, sink: (any ReportSink)?, streamSeconds: Double?) -> UInt64 {
        guard let stopAfter = sink?.stopAfterSeconds, let streamSeconds else { return restNs }
        let remainingSeconds = stopAfter - streamSeconds
        guard remainingSeconds > 0 else { return hopNs }
        // Clamped before the conversion: a duration of centuries must not trap.
        let remainingNs = UInt64(min(remainingSeconds * 1e9, Double(restNs)))
        return max(hopNs, min(restNs, remainingNs + hopNs))
    }
}
