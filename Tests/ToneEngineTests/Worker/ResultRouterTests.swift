import Testing
@testable import ToneDSP
@testable import ToneModem
@testable import ToneEngine

/// `ResultRouter`: reports and messages to the sink or to the events, and what each hand-over publishes.
@Suite("ResultRouter")
struct ResultRouterTests {
    private static func report(at seconds: Double, settled: Bool = true, channel: Int = 0) -> ToneReport {
        var report = ToneReport(timeSeconds: seconds, reading: ToneReading(), channel: channel)
        report.settled = settled
        return report
    }

    private static let incomplete = ModemEvent.incomplete(IncompleteModemMessage(
        messageID: 7, timeSeconds: 1.5, profile: .audible, receivedFrames: 1, frameCount: 2))

    @Test("without a sink, everything goes to the events: one batch per hand-over, in order, none when empty")
    func withoutSink() {
        let published = PublishedBatches()
        let router = ResultRouter(sink: nil, timeOffsetSeconds: 30, publish: published.publish)
        router.handOver()
        #expect(published.all.isEmpty)
        router.take(Self.report(at: 0.25, settled: false))
        router.take(Self.incomplete, channel: 1)
        router.take(Self.report(at: 0.5, channel: 1))
        #expect(published.all.isEmpty, "held until the hand-over")
        router.handOver()
        router.post(.serverGone)
        router.handOver()
        router.handOver()
        // The node's own times: the supervisor adds the offset to events.
        #expect(published.all == [["report 0.25 settled=false ch0", "message ch1", "report 0.5 settled=true ch1"],
                                  ["serverGone"]])
    }

    @Test("with a sink, reports (times continued) and messages go to it, flushed at every hand-over")
    func withSink() {
        let sink = RecordingSink()
        let published = PublishedBatches()
        let router = ResultRouter(sink: sink, timeOffsetSeconds: 30, publish: published.publish)
        router.handOver()
        router.take(Self.report(at: 0.25, settled: false))
        router.take(Self.incomplete, channel: 1)
        router.handOver()
        #expect(sink.taken == [.flush, .report(timeSeconds: 30.25, settled: false, channel: 0),
                               .message(Self.incomplete, channel: 1, timeOffsetSeconds: 30), .flush])
        #expect(published.all == [["progress 30.25 settled=false"]])
    }

    @Test("with a sink, the events get notices and a progress about once a second of audio, after the notices")
    func progress() {
        let sink = RecordingSink()
        let published = PublishedBatches()
        let router = ResultRouter(sink: sink, timeOffsetSeconds: 0, publish: published.publish)
        router.take(Self.report(at: 0.5, settled: false))
        router.handOver()                                   // progress 0.5
        router.take(Self.report(at: 1.25))
        router.handOver()                                   // under a second since: none
        router.take(Self.report(at: 1.5))
        router.post(.trouble(xruns: 1, overflows: 0, droppedFrames: 0))
        router.handOver()                                   // a second since 0.5: progress 1.5, after the trouble
        router.handOver()                                   // nothing new
        router.take(Self.report(at: 2.25))
        router.handOver()
        #expect(published.all == [["progress 0.5 settled=false"],
                                  ["trouble 1 0 0", "progress 1.5 settled=true"]])
        #expect(sink.taken.filter { $0 == .flush }.count == 5)
    }
}
