import Foundation
import Synchronization
import ToneDSP
import ToneModem
import ToneEngine
import ToneCommandLine

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
    /// Cable segments assembled into files (`--receive-profile cable`).
    let cableTransfers: CableTransfers
    private let stopped = Atomic<Bool>(false)
    /// The inputs nothing feeds, as the supervisor last saw the graph.
    private let unconnected = Mutex<Set<Int>>([])

    init(json: Bool, listTones: Bool, channels: Int, durationSeconds: Double?, cableTransfers: CableTransfers? = nil,
         stop: @escaping @Sendable () -> Void, writer: LineWriter = LineWriter()) {
        self.cableTransfers = cableTransfers ?? CableTransfers(json: json)
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
        var report = report
        report.markUnconnected(unconnected.withLock { $0 })
        writer.append(Self.line(report, json: json, channels: channels, listTones: listTones))
        if let durationSeconds, report.timeSeconds >= durationSeconds,
           !stopped.exchange(true, ordering: .relaxed) { stop() }
    }

    func take(_ message: ModemEvent, channel: Int, timeOffsetSeconds: Double) {
        if case .cable(let reception, let seconds) = message {
            guard let line = cableTransfers.take(reception, channel: channel, timeSeconds: seconds + timeOffsetSeconds) else { return }
            return writer.append(line)
        }
        writer.append(Self.line(message, channel: channel, timeOffsetSeconds: timeOffsetSeconds,
                                json: json, channels: channels))
    }

    /// A report's line, as `run` prints it on either path (this sink, or
    /// `NodeOutput` without one): its channel (from 1) only when there is more than one.
    static func line(_ report: ToneReport, json: Bool, channels: Int, listTones: Bool) -> String {
        let channel = channels > 1 ? report.channel + 1 : nil
        return json ? ReportFormatter.json(report, channel: channel, listTones: listTones)
                    : ReportFormatter.human(report, channel: channel, listTones: listTones)
    }

    /// A message's line heard on input `channel` (from 0), numbered from 1 only when there is more than one.
    static func line(_ message: ModemEvent, channel: Int, timeOffsetSeconds: Double, json: Bool, channels: Int) -> String {
        let number = channels > 1 ? channel + 1 : nil
        return json ? MessageFormatter.json(message, channel: number, timeOffsetSeconds: timeOffsetSeconds)
                    : MessageFormatter.human(message, channel: number, timeOffsetSeconds: timeOffsetSeconds)
    }

    func inputsUnconnected(_ channels: Set<Int>) { unconnected.withLock { $0 = channels } }

    func flush() { writer.flush() }

    var stopAfterSeconds: Double? { durationSeconds }

    var secondsUntilFlushDue: Double? { writer.secondsUntilWriteDue }

    /// To a regular file (or /dev/null): the writer's hold and a margin, so
    /// that at each of the worker's wakes the hold since the last write (at
    /// the wake before) is over and the wake's lines go out at once, though
    /// wakes come a few milliseconds early or late. 0.1 s by default. To a
    /// pipe or a terminal: none (a wake a hop; each line as it is made).
    var batchSeconds: Double? { writer.writesInBlocks ? writer.holdSeconds + Self.batchMarginSeconds : nil }
    static let batchMarginSeconds = 0.02
}
