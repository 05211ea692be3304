import Synchronization
import ToneCommandLine
import ToneDSP
import ToneEngine
import ToneModem
import ToneWeb

/// `run --web` without a live view: the worker's reports go to stdout as
/// before (the `ReportLineSink` it wraps) and, as JSON lines, to the live
/// page's hub, whose per-tab queues drop rather than wait. Everything here
/// runs on the worker and never blocks it.
final class WebReportSink: ReportSink {
    let inner: ReportLineSink
    let hub: WebHub
    let channels: Int
    /// The inputs nothing feeds, as the supervisor last saw the graph.
    private let unconnected = Mutex<Set<Int>>([])

    init(inner: ReportLineSink, hub: WebHub, channels: Int) {
        self.inner = inner
        self.hub = hub
        self.channels = channels
    }

    func take(_ report: ToneReport) {
        inner.take(report)
        var report = report
        report.markUnconnected(unconnected.withLock { $0 })
        hub.publish(NodeWeb.line(report, channels: channels), history: true)
    }

    func take(_ message: ModemEvent, channel: Int, timeOffsetSeconds: Double) {
        inner.take(message, channel: channel, timeOffsetSeconds: timeOffsetSeconds)
        if case .cable = message { return }
        hub.publish(ReportLineSink.line(message, channel: channel, timeOffsetSeconds: timeOffsetSeconds,
                                        json: true, channels: channels), history: true)
    }

    func flush() { inner.flush() }
    var stopAfterSeconds: Double? { inner.stopAfterSeconds }
    var secondsUntilFlushDue: Double? { inner.secondsUntilFlushDue }
    var batchSeconds: Double? { inner.batchSeconds }

    func inputsUnconnected(_ channels: Set<Int>) {
        unconnected.withLock { $0 = channels }
        inner.inputsUnconnected(channels)
    }
}
