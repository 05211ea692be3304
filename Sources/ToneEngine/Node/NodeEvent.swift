import ToneCore
import ToneDSP
import ToneModem
import ToneJack

/// What the worker hands to the node's owner (`Node.events`), on the owner's task.
public enum NodeEvent: Sendable {
    /// One analysis hop.
    case report(ToneReport)
    /// A message decoded from tones on input `channel` (from 0), or one
    /// reported incomplete; its time counts from this node's first input frame.
    case message(ModemEvent, channel: Int)
    /// New xruns or ring overflows since the last notice (totals).
    case trouble(xruns: Int, overflows: Int, droppedFrames: Int)
    /// The server's period (PipeWire's quantum) changed to `periodFrames`
    /// while the node ran; windows across the change are withheld.
    case periodChanged(periodFrames: Int)
    /// The server's sample rate changed to `rateHz` (PipeWire's
    /// `clock.force-rate`): the node's tones and analyzers are made for the
    /// old one, so the worker ends with this, and the owner reopens the node.
    case sampleRateChanged(rateHz: Int)
    /// The process callback's durations so far (`--profile-callback`), every
    /// `TroubleNotices.profileIntervalSeconds`.
    case callbackProfile(CallbackProfile)
    /// The JACK server shut the client down.
    case serverGone
    /// With a `ReportSink`, which takes the reports and messages: about once
    /// a second of audio, the newest report's time (settled or not), so the
    /// owner can follow the graph without a wake per report.
    case progress(timeSeconds: Double, settled: Bool)
}
