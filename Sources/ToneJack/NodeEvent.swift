import ToneDSP

/// What the worker hands to the main thread.
public enum NodeEvent: Sendable {
    /// One analysis hop.
    case report(ToneReport)
    /// New xruns or ring overflows since the last notice (totals).
    case trouble(xruns: Int, overflows: Int, droppedFrames: Int)
    /// The JACK server shut the client down.
    case serverGone
}
