import ToneCore
import ToneDSP
import ToneJack

/// What the worker hands to the main thread.
public enum NodeEvent: Sendable {
    /// One analysis hop.
    case report(ToneReport)
    /// A message decoded from tones on input `channel` (from 0), or one
    /// reported incomplete; its time counts from this node's first input frame.
    case message(ModemEvent, channel: Int)
    /// New xruns or ring overflows since the last notice (totals).
    case trouble(xruns: Int, overflows: Int, droppedFrames: Int)
    /// The process callback's durations so far (`--profile-callback`), every
    /// `AnalysisWorker.profileIntervalSeconds`.
    case callbackProfile(CallbackProfile)
    /// The JACK server shut the client down.
    case serverGone
}

/// A node's events, one at a time, as the worker hands them over: in
/// batches, one per wake (a whole burst of hops' reports of an idle input
/// is one hand-over, so one wake of the reading task, not one per report).
public struct NodeEvents: AsyncSequence, Sendable {
    public typealias Element = NodeEvent
    public typealias Failure = Never
    let batches: AsyncStream<[NodeEvent]>

    public struct AsyncIterator: AsyncIteratorProtocol {
        var batches: AsyncStream<[NodeEvent]>.Iterator
        var pending: [NodeEvent] = []
        var index = 0

        public mutating func next() async -> NodeEvent? { await next(isolation: nil) }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> NodeEvent? {
            while index == pending.count {
                guard let batch = await batches.next(isolation: actor) else { return nil }
                pending = batch
                index = 0
            }
            defer { index += 1 }
            return pending[index]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(batches: batches.makeAsyncIterator()) }
}
