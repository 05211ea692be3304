import Testing
@testable import ToneEngine

/// `WakeSchedule`: when the analysis worker wakes, in each regime, with and without a sink's pacing.
@Suite("WakeSchedule")
struct WakeScheduleTests {
    private static let ms: UInt64 = 1_000_000

    @Test("the regime: idle inputs over anything, then settling until the first settled report, then sound")
    func regimes() {
        #expect(WakeSchedule.Regime(idle: true, settledReported: false) == .idle)
        #expect(WakeSchedule.Regime(idle: true, settledReported: true) == .idle)
        #expect(WakeSchedule.Regime(idle: false, settledReported: false) == .settling)
        #expect(WakeSchedule.Regime(idle: false, settledReported: true) == .sound)
    }

    @Test("a hop is capped at 100 ms and floored at 0.1 ms; settling at most 2 ms, idle at least 1 s", arguments: [
        (0.1, 100 * ms, 2 * ms, 1000 * ms),
        (0.015625, 15_625_000, 2 * ms, 1000 * ms),
        (0.0009765625, 976_562, 976_562, 1000 * ms),   // 0.9765625 ms, truncated to whole ns
        (0.5, 100 * ms, 2 * ms, 1000 * ms),
        (1e-6, 100_000, 100_000, 1000 * ms),
    ])
    func rests(hopSeconds: Double, hopNs: UInt64, settlingNs: UInt64, idleNs: UInt64) {
        let schedule = WakeSchedule(hopSeconds: hopSeconds)
        #expect(schedule.hopNs == hopNs)
        #expect(schedule.settlingNs == settlingNs)
        #expect(schedule.idleNs == idleNs)
        #expect(schedule.restNs(.settling, sink: nil, streamSeconds: 0) == settlingNs)
        #expect(schedule.restNs(.sound, sink: nil, streamSeconds: 0) == hopNs)
        #expect(schedule.restNs(.idle, sink: nil, streamSeconds: 0) == idleNs)
    }

    @Test("while sound arrives, a sink's batch replaces the hop when longer, at most 100 ms")
    func soundWithBatch() {
        let schedule = WakeSchedule(hopSeconds: 0.015625)
        func rest(batch: Double?) -> UInt64 {
            schedule.restNs(.sound, sink: RecordingSink(batchSeconds: batch), streamSeconds: 0)
        }
        #expect(rest(batch: nil) == 15_625_000)
        #expect(rest(batch: 0) == 15_625_000)
        #expect(rest(batch: 0.0078125) == 15_625_000, "a batch shorter than the hop: a hop")
        #expect(rest(batch: 0.0625) == 62_500_000)
        #expect(rest(batch: 0.33) == 100 * Self.ms, "capped at maximumWaitMilliseconds")
        // Settling ignores the sink: the first reading is hurried whatever the reader.
        #expect(schedule.restNs(.settling, sink: RecordingSink(batchSeconds: 0.25), streamSeconds: 0) == 2 * Self.ms)
    }

    @Test("an idle worker wakes when the sink's held lines are due, but rests at least a hop")
    func idleWithHeldLines() {
        let schedule = WakeSchedule(hopSeconds: 0.015625)
        func rest(due: Double?) -> UInt64 {
            schedule.restNs(.idle, sink: RecordingSink(secondsUntilFlushDue: due), streamSeconds: 0)
        }
        #expect(rest(due: nil) == 1000 * Self.ms)
        #expect(rest(due: 0.0625) == 62_500_000)
        #expect(rest(due: 0) == 15_625_000)
        #expect(rest(due: -3) == 15_625_000, "overdue: a hop")
        #expect(rest(due: 5) == 1000 * Self.ms, "due after a rest: a rest")
    }

    @Test("no rest reaches more than a hop past the sink's stop time; past it, a hop; centuries do not trap")
    func endsOnTime() {
        let schedule = WakeSchedule(hopSeconds: 0.015625)
        func rest(_ regime: WakeSchedule.Regime, stop: Double?, at stream: Double?, batch: Double? = nil) -> UInt64 {
            schedule.restNs(regime, sink: RecordingSink(stopAfterSeconds: stop, batchSeconds: batch), streamSeconds: stream)
        }
        #expect(rest(.idle, stop: 10, at: 9.75) == 250_000_000 + 15_625_000)
        #expect(rest(.idle, stop: 10, at: 8) == 1000 * Self.ms)
        #expect(rest(.idle, stop: 10, at: 10) == 15_625_000)
        #expect(rest(.idle, stop: 10, at: 12.5) == 15_625_000)
        #expect(rest(.idle, stop: 1e12, at: 0) == 1000 * Self.ms)
        #expect(rest(.idle, stop: 10, at: nil) == 1000 * Self.ms, "no channel: no stream time to count from")
        #expect(rest(.idle, stop: nil, at: 9.75) == 1000 * Self.ms)
        #expect(rest(.sound, stop: 10, at: 9.96875, batch: 0.0625) == 31_250_000 + 15_625_000)
        // Without a batch the rest is a hop anyway, never shortened.
        #expect(rest(.sound, stop: 10, at: 9.99, batch: nil) == 15_625_000)
    }

    @Test("fixed steps that do not drift; woken early, a rest from now; after a stall, a rest from now")
    func steps() {
        let rest = 100 * Self.ms
        let planned = 5000 * Self.ms
        // On time, or a little late: the next step of the grid.
        #expect(WakeSchedule.nextWakeNs(after: planned, restNs: rest, nowNs: planned, atMostNs: nil) == planned + rest)
        #expect(WakeSchedule.nextWakeNs(after: planned, restNs: rest, nowNs: planned + 30 * Self.ms, atMostNs: nil)
                == planned + rest)
        // Woken early (sound): the step would be more than a rest ahead.
        #expect(WakeSchedule.nextWakeNs(after: planned, restNs: rest, nowNs: planned - 40 * Self.ms, atMostNs: nil)
                == planned + 60 * Self.ms)
        // Long behind (a stall): from now, not a burst of catch-up wakes.
        #expect(WakeSchedule.nextWakeNs(after: planned, restNs: rest, nowNs: planned + 700 * Self.ms, atMostNs: nil)
                == planned + 800 * Self.ms)
        // Exactly a step behind: from now.
        #expect(WakeSchedule.nextWakeNs(after: planned, restNs: rest, nowNs: planned + rest, atMostNs: nil)
                == planned + 2 * rest)
    }

    @Test("a stalled server caps the rest at its look interval")
    func stalledCap() {
        let now = 9000 * Self.ms
        #expect(WakeSchedule.nextWakeNs(after: now, restNs: 1000 * Self.ms, nowNs: now, atMostNs: 500 * Self.ms)
                == now + 500 * Self.ms)
        #expect(WakeSchedule.nextWakeNs(after: now, restNs: 100 * Self.ms, nowNs: now, atMostNs: 500 * Self.ms)
                == now + 100 * Self.ms)
    }

    @Test("the bridge wait rounds up to whole milliseconds; none once the wake is due")
    func waits() {
        #expect(WakeSchedule.waitMilliseconds(until: 10, nowNs: 10) == nil)
        #expect(WakeSchedule.waitMilliseconds(until: 10, nowNs: 11) == nil)
        #expect(WakeSchedule.waitMilliseconds(until: 11, nowNs: 10) == 1)
        #expect(WakeSchedule.waitMilliseconds(until: 2 * Self.ms + 10, nowNs: 10) == 2)
        #expect(WakeSchedule.waitMilliseconds(until: 2 * Self.ms + 11, nowNs: 10) == 3)
    }
}
