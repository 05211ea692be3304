import EndToEndSupport
import Foundation
import Synchronization
import Testing
import ToneDSP
import ToneModem
import ToneEngine

extension JackServerTests {
    /// Issue 17: each wake of the worker costs more than a hop's analysis
    /// (live, on this machine: ~80 µs a wake at hop 512 against ~20 µs of
    /// analysis). A sink whose reader waits anyway (`run` to a regular file,
    /// written in blocks of 0.1 s) says so (`ReportSink.batchSeconds`) and the
    /// worker wakes once per block while sound arrives, analysing the hops
    /// that came meanwhile together; a sink without it (a pipe, a terminal)
    /// still gets each hop's report as soon as its window is in.
    @Suite("The worker wakes as often as its sink's reader needs")
    struct WorkerBatchTests {
        /// Keeps the report times and says how long its reader waits.
        final class RecordingSink: ReportSink {
            let batchSeconds: Double?
            private let reports = Mutex<[(timeSeconds: Double, frequencyHz: Double?)]>([])
            init(batchSeconds: Double?) { self.batchSeconds = batchSeconds }
            /// Settled reports only: a slow connection's unsettled ones come on a grid of their own.
            func take(_ report: ToneReport) {
                guard report.settled else { return }
                reports.withLock { $0.append((report.timeSeconds, report.reading.frequencyHz)) }
            }
            func take(_ message: ModemEvent, channel: Int, timeOffsetSeconds: Double) {}
            func flush() {}
            var reportTimes: [Double] { reports.withLock { $0.map(\.timeSeconds) } }
            /// Reports from the last `count` that read `frequencyHz` within 0.1 Hz.
            func reading(_ frequencyHz: Double, amongLast count: Int) -> Int {
                reports.withLock { $0.suffix(count).count { abs(($0.frequencyHz ?? 0) - frequencyHz) < 0.1 } }
            }
        }

        @Test("a node looping its own tone: once a hop without a batch, about ten times a second with 0.1 s; every hop's report either way",
              arguments: [nil, 0.1])
        func wakesFollowTheSink(batchSeconds: Double?) async throws {
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            let sink = RecordingSink(batchSeconds: batchSeconds)
            var settings = nodeSettings(server, client: "batched")
            settings.frequencyHz = 1000
            settings.hopFrames = 512
            settings.loopback = true
            let withheldBefore = Node.withheldReadings
            let node = try Node(settings: settings, reportSink: sink)
            defer { node.stop() }
            let rateHz = Double(node.client.sampleRateHz)
            let hopSeconds = Double(settings.hopFrames) / rateHz
            // Settled and steady: a second of reports.
            let deadline = Date().addingTimeInterval(10)
            while sink.reportTimes.count < Int(1 / hopSeconds), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let threadID = node.workerThreadID
            try #require(threadID != 0 && sink.reportTimes.count >= Int(1 / hopSeconds))
            let before = try IdleNodeTests.voluntarySwitches(threadID)
            let framesBefore = node.renderedFrames
            try await Task.sleep(for: .seconds(3))
            let wakes = try IdleNodeTests.voluntarySwitches(threadID) - before
            let seconds = Double(node.renderedFrames - framesBefore) / rateHz
            let hops = seconds / hopSeconds
            if let batchSeconds {
                // 30 batches in 3 s; with room for a loaded machine, far from a wake a hop (~280).
                #expect(Double(wakes) < 1.5 * seconds / batchSeconds + 5, "\(wakes) wakes in \(seconds) s")
            } else {
                #expect(Double(wakes) > 0.8 * hops, "\(wakes) wakes for \(hops) hops in \(seconds) s")
            }
            // Every hop reported, in order, a hop apart; the tone read (sound
            // arrived: an idle worker would rest a second whatever the sink).
            // A tone read across one of the node's xruns (a loaded machine's
            // dummy server) is withheld (DiscontinuityGate): the hops missing
            // are those the node counted as withheld, never more.
            #expect(sink.reading(1000, amongLast: 200) == 200)
            let times = sink.reportTimes
            let withheld = Node.withheldReadings - withheldBefore
            #expect(Double(times.count + withheld) > 3.5 / hopSeconds, "\(times.count) reports, \(withheld) withheld")
            var missingHops = 0
            for (earlier, later) in zip(times, times.dropFirst()) {
                let hops = (later - earlier) / hopSeconds
                if abs(hops - hops.rounded()) > 1e-6 || hops.rounded() < 1 {
                    Issue.record("reports \(earlier) s → \(later) s, not a whole number of hops apart")
                    break
                }
                missingHops += Int(hops.rounded()) - 1
            }
            #expect(missingHops <= withheld, "\(missingHops) hops without a report, \(withheld) withheld")
        }
    }
}
