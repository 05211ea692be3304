import Synchronization
import ToneDSP
import ToneModem
@testable import ToneEngine

/// A `ReportSink` that records what it is handed, with the pacing a test gives it.
final class RecordingSink: ReportSink {
    enum Taken: Equatable {
        case report(timeSeconds: Double, settled: Bool, channel: Int)
        case message(ModemEvent, channel: Int, timeOffsetSeconds: Double)
        case flush
    }

    let stopAfterSeconds: Double?
    let secondsUntilFlushDue: Double?
    let batchSeconds: Double?
    private let log = Mutex<[Taken]>([])

    init(stopAfterSeconds: Double? = nil, secondsUntilFlushDue: Double? = nil, batchSeconds: Double? = nil) {
        self.stopAfterSeconds = stopAfterSeconds
        self.secondsUntilFlushDue = secondsUntilFlushDue
        self.batchSeconds = batchSeconds
    }

    /// What it took so far, in order.
    var taken: [Taken] { log.withLock { $0 } }

    func take(_ report: ToneReport) {
        log.withLock { $0.append(.report(timeSeconds: report.timeSeconds, settled: report.settled, channel: report.channel)) }
    }

    func take(_ message: ModemEvent, channel: Int, timeOffsetSeconds: Double) {
        log.withLock { $0.append(.message(message, channel: channel, timeOffsetSeconds: timeOffsetSeconds)) }
    }

    func flush() { log.withLock { $0.append(.flush) } }
}

/// The batches a worker's `publish` got, each event as a short text.
final class PublishedBatches: Sendable {
    private let batches = Mutex<[[String]]>([])

    var all: [[String]] { batches.withLock { $0 } }

    var publish: @Sendable ([NodeEvent]) -> Void {
        { batch in self.batches.withLock { $0.append(batch.map(Self.describe)) } }
    }

    static func describe(_ event: NodeEvent) -> String {
        switch event {
        case .report(let report): "report \(report.timeSeconds) settled=\(report.settled) ch\(report.channel)"
        case .message(_, let channel): "message ch\(channel)"
        case .trouble(let xruns, let overflows, let dropped): "trouble \(xruns) \(overflows) \(dropped)"
        case .periodChanged(let frames): "periodChanged \(frames)"
        case .callbackProfile(let profile): "profile \(profile.count)"
        case .sampleRateChanged(let rateHz): "sampleRateChanged \(rateHz)"
        case .serverGone: "serverGone"
        case .progress(let seconds, let settled): "progress \(seconds) settled=\(settled)"
        }
    }
}
