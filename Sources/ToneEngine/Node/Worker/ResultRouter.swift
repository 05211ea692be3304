import ToneDSP
import ToneModem

/// Where the worker's results go.
///
/// Given a `ReportSink`, reports and messages go to it as the worker makes
/// them (report times continued by `timeOffsetSeconds`, the nodes before
/// this one), and it is flushed at each hand-over (every drained block and
/// every wake, reports or not), on the worker thread; `publish` then gets
/// only the rare events and, about once a second of audio, a `.progress`.
/// Without one, everything goes to `publish`: one batch per hand-over, so a
/// whole burst of hops' reports is one wake of the reading task.
///
/// Worker only.
final class ResultRouter {
    /// Takes reports and messages on the worker thread when set (else they go to `publish`).
    let sink: (any ReportSink)?
    /// Added to report times for the sink (the nodes before this one).
    let timeOffsetSeconds: Double
    private let publish: @Sendable ([NodeEvent]) -> Void
    /// Events gathered since the last hand-over.
    private var outbox: [NodeEvent] = []
    /// With a sink: the newest report's time (offset included) and whether
    /// it was settled, and the time of the last `.progress`.
    private var newestReport: (timeSeconds: Double, settled: Bool)?
    private var progressSeconds = -Double.infinity

    init(sink: (any ReportSink)?, timeOffsetSeconds: Double, publish: @escaping @Sendable ([NodeEvent]) -> Void) {
        self.sink = sink
        self.timeOffsetSeconds = timeOffsetSeconds
        self.publish = publish
    }

    /// One report (its time this node's own): to the sink, its time
    /// continued, or to the next batch.
    func take(_ report: ToneReport) {
        guard let sink else {
            outbox.append(.report(report))
            return
        }
        var report = report
        report.timeSeconds += timeOffsetSeconds
        newestReport = (report.timeSeconds, report.settled)
        sink.take(report)
    }

    /// A decoded (or incomplete) message on input `channel`: to the sink, or to the next batch.
    func take(_ message: ModemEvent, channel: Int) {
        if let sink { sink.take(message, channel: channel, timeOffsetSeconds: timeOffsetSeconds) }
        else { outbox.append(.message(message, channel: channel)) }
    }

    /// A notice (trouble, the profile, the server gone) for the next batch, whatever the sink.
    func post(_ event: NodeEvent) {
        outbox.append(event)
    }

    /// Publishes the events gathered so far, as one batch; with a sink,
    /// flushes it and, about once a second of audio, adds a `.progress`.
    func handOver() {
        if let sink {
            sink.flush()
            if let newest = newestReport, newest.timeSeconds - progressSeconds >= 1 {
                progressSeconds = newest.timeSeconds
                outbox.append(.progress(timeSeconds: newest.timeSeconds, settled: newest.settled))
            }
        }
        guard !outbox.isEmpty else { return }
        publish(outbox)
        outbox = []
    }
}
