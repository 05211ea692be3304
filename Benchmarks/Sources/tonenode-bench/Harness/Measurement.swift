/// A workload runs its operation `iterations` times and returns the seconds
/// spent on the part being measured (usually all of it; see `stopwatch`).
typealias Workload = (_ iterations: Int) -> Double

/// Per-operation times, in seconds, of one side of a comparison: one entry
/// per repetition.
struct Timings {
    var seconds: [Double] = []
    var median: Double { seconds.median }
    var minimum: Double { seconds.min() ?? .nan }
}

/// ToneNode against its reference, measured in interleaved repetitions.
struct Comparison {
    var toneNode = Timings()
    var reference = Timings()

    /// ToneNode time ÷ reference time: the median of the per-repetition
    /// ratios. Pairing each ToneNode run with the reference run next to it
    /// cancels most of what the other tenants of a shared machine do.
    var ratio: Double {
        zip(toneNode.seconds, reference.seconds).map { $0 / $1 }.median
    }
}

/// Times `body` with the monotonic clock and keeps its result alive.
/// - Returns: elapsed seconds.
func stopwatch(_ body: () -> Double) -> Double {
    let start = ContinuousClock.now
    let checksum = body()
    let elapsed = ContinuousClock.now - start
    blackHole(checksum)
    return elapsed.seconds
}

/// What a `stopwatch` around nothing reports, the clock's own share of
/// every interval: the median over runs of the mean of many empty intervals.
func stopwatchOverheadSeconds() -> Double {
    let calls = 10_000
    let runs = (0..<9).map { _ in
        var total = 0.0
        for _ in 0..<calls { total += stopwatch { 0 } }
        return total / Double(calls)
    }
    return runs.median
}

/// Compares two workloads.
///
/// Each side is first calibrated (which also warms caches, branch predictors
/// and the CPU clock) to an iteration count that takes about `targetSeconds`;
/// then the two run alternately, `repetitions` times each, the side that goes
/// first swapping every round so neither always inherits the other's state.
func compare(repetitions: Int, targetSeconds: Double,
             toneNode: Workload, reference: Workload) -> Comparison {
    let toneNodeIterations = calibrate(toneNode, targetSeconds: targetSeconds)
    let referenceIterations = calibrate(reference, targetSeconds: targetSeconds)
    var result = Comparison()
    for round in 0..<repetitions {
        if round.isMultiple(of: 2) {
            result.toneNode.seconds.append(toneNode(toneNodeIterations) / Double(toneNodeIterations))
            result.reference.seconds.append(reference(referenceIterations) / Double(referenceIterations))
        } else {
            result.reference.seconds.append(reference(referenceIterations) / Double(referenceIterations))
            result.toneNode.seconds.append(toneNode(toneNodeIterations) / Double(toneNodeIterations))
        }
    }
    return result
}

/// The iteration count that makes `workload` take about `targetSeconds`.
private func calibrate(_ workload: Workload, targetSeconds: Double) -> Int {
    var iterations = 1
    while true {
        let seconds = workload(iterations)
        if seconds >= targetSeconds / 8 || iterations >= 1 << 30 {
            let perIteration = seconds / Double(iterations)
            return max(1, Int((targetSeconds / perIteration).rounded(.up)))
        }
        iterations *= 2
    }
}

/// Where results go so the optimiser cannot prove them unused.
nonisolated(unsafe) private var sink = 0.0

@inline(never)
func blackHole(_ value: Double) {
    sink += value
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}

extension Array where Element == Double {
    /// The middle value (the mean of the two middle values for an even count).
    var median: Double {
        guard !isEmpty else { return .nan }
        let sorted = sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
