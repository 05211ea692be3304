import Foundation
import Synchronization
import ToneDSP
import ToneEngine

/// Formats a node's reports and messages on its worker thread and writes
/// them to stdout there, with a `LineWriter` (never blocking the worker):
/// `run` without a live view. The same lines, byte for byte, as
/// `NodeOutput.handle` prints for `.report` and `.message`.
final class ReportLineSink: ReportSink {
    let json: Bool
    let listTones: Bool
    let channels: Int
    let durationSeconds: Double?
    let stop: @Sendable () -> Void
    let writer: LineWriter
    private let stopped = Atomic<Bool>(false)

    init(json: Bool, listTones: Bool, channels: Int, durationSeconds: Double?,
         stop: @escaping @Sendable () -> Void, writer: LineWriter = LineWriter()) {
        self.json = json
        self.listTones = listTones
        self.channels = channels
        self.durationSeconds = durationSeconds
        self.stop = stop
        self.writer = writer
    }

    func take(_ report: ToneReport) {
        // `--duration`: the report that reaches it is the last one (a wake drains what the ring holds beyond).
        guard !stopped.load(ordering: .relaxed) else { return }
        // Reports carry their channel (from 1) only when there is more than one.
        let channel = channels > 1 ? report.channel + 1 : nil
        writer.append(json ? ReportFormatter.json(report, channel: channel, listTones: listTones)
                           : ReportFormatter.human(report, channel: channel, listTones: listTones))
        if let durationSeconds, report.timeSeconds >= durationSeconds,
           !stopped.exchange(true, ordering: .relaxed) { stop() }
    }

    func take(_ message: ModemEvent, channel: Int, timeOffsetSeconds: Double) {
        let number = channels > 1 ? channel + 1 : nil
        writer.append(json ? MessageFormatter.json(message, channel: number, timeOffsetSeconds: timeOffsetSeconds)
                           : MessageFormatter.human(message, channel: number, timeOffsetSeconds: timeOffsetSeconds))
    }

    func flush() { writer.flush() }

    var stopAfterSeconds: Double? { durationSeconds }
}
