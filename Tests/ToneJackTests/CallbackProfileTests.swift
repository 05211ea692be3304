import Testing
import ToneJack

/// The summary line `--profile-callback` prints (and `Benchmarks/callback-client`
/// prints the same way): its tail count against 2 % of the period.
@Suite("CallbackProfile")
struct CallbackProfileTests {
    /// 64 frames at 48 kHz: a 1333.3 µs period, 2 % of it 26.7 µs, so whole bins from 27 µs.
    func profile(_ durationsMicroseconds: [Int]) -> CallbackProfile {
        var bins = [UInt64](repeating: 0, count: 4096)
        for duration in durationsMicroseconds { bins[min(duration, bins.count - 1)] += 1 }
        let totalNanoseconds = UInt64(durationsMicroseconds.reduce(0, +) * 1000 + durationsMicroseconds.count * 500)
        return CallbackProfile(count: durationsMicroseconds.count, totalNanoseconds: totalNanoseconds,
                               worstNanoseconds: UInt64((durationsMicroseconds.max() ?? 0) * 1000 + 500),
                               bins: bins, periodFrames: 64, sampleRateHz: 48000)
    }

    @Test("counts the callbacks of 2 % of the period or more, and says so in the summary")
    func overBudget() {
        let measured = profile([0, 1, 1, 2, 26, 27, 40, 5000])
        #expect(measured.budgetMicroseconds == 27)
        #expect(measured.callbacks(fromMicroseconds: 27) == 3)
        #expect(measured.callbacks(fromMicroseconds: 26) == 4)
        #expect(measured.callbacks(fromMicroseconds: 0) == 8)
        #expect(measured.summary.hasSuffix(", 3 of 27 µs (2 %) or more"), "\(measured.summary)")
        #expect(measured.summary.hasPrefix("callback: 8 periods of 1333.3 µs: mean "), "\(measured.summary)")
    }

    @Test("a 256-frame period's budget is 107 µs; none over it, none counted")
    func noneOver() {
        var measured = profile([3, 4, 100, 106])
        measured.periodFrames = 256
        #expect(measured.budgetMicroseconds == 107)
        #expect(measured.summary.hasSuffix(", 0 of 107 µs (2 %) or more"), "\(measured.summary)")
    }
}
