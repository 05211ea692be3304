import ToneDSP
import ToneModem

/// Where a node's worker puts its reports and decoded messages itself, on its
/// own thread, in place of `Node.events`: formatted and written there, a
/// report costs no other thread's wake (issue 17: handing each batch to a
/// task on the cooperative pool cost more than the analysis itself).
///
/// The worker calls `take` for each report and message as it makes them,
/// then `flush` once per wake. Neither may block: a reader that stops
/// reading must cost the worker nothing but the reports it drops. One worker
/// at a time uses a sink (a node reopened after a server restart gets the
/// same one after the old worker has stopped).
public protocol ReportSink: AnyObject, Sendable {
    /// One report; its time already continues the nodes before it
    /// (`Node.init`'s `timeOffsetSeconds`).
    func take(_ report: ToneReport)
    /// A decoded (or incomplete) message on input `channel` (from 0); add
    /// `timeOffsetSeconds` to its time.
    func take(_ message: ModemEvent, channel: Int, timeOffsetSeconds: Double)
    /// Writes what it holds as far as it can without blocking; a sink may
    /// hold lines back a little longer (a regular file written in blocks:
    /// see `secondsUntilFlushDue`).
    func flush()
    /// The report time (offset included) after which the owner stops the
    /// node (`--duration`), if any: an idle worker, which otherwise rests a
    /// second at a time, wakes for it (nil: none).
    var stopAfterSeconds: Double? { get }
    /// When the last `flush` held lines back: the seconds until a flush
    /// writes them (0: the next one), so that an idle worker, which otherwise
    /// rests a second at a time, wakes for it (nil: nothing held).
    var secondsUntilFlushDue: Double? { get }
    /// How long the sink's reader waits for lines anyway (a regular file or
    /// /dev/null, written in blocks: a little over the hold between writes): the worker then wakes once per
    /// such interval while sound arrives, analysing the hops that came
    /// meanwhile together, instead of once a hop; each wake costs more than
    /// a hop's analysis (nil: once a hop).
    var batchSeconds: Double? { get }
    /// The inputs (channels, from 0) nothing feeds, as the supervisor last
    /// saw the graph (about once a second): a report with no tone from one
    /// of them is marked `unconnected`. Called on the supervisor's task.
    func inputsUnconnected(_ channels: Set<Int>)
}

extension ReportSink {
    public var stopAfterSeconds: Double? { nil }
    public var secondsUntilFlushDue: Double? { nil }
    public var batchSeconds: Double? { nil }
    public func inputsUnconnected(_ channels: Set<Int>) {}
}
