/// What plays pre-rendered samples on a node's `out` (added to the tone):
/// the one part of the engine a task of its own may hold (`run --send`, a
/// cable session's answers), `Sendable` where `Node` is not. One caller at a
/// time: the engine's sample queue has one producer.
public struct NodePlayback: Sendable {
    let engine: Engine

    /// The node's sample rate, the one to render at.
    public var sampleRateHz: Double { engine.sampleRateHz }

    /// `Node.play`: plays `samples` and returns once the last one has left the port.
    @discardableResult
    public func play(_ samples: [Float], timeoutSeconds: Double? = nil,
                     shouldStop: @Sendable () -> Bool = { false }) async -> Bool {
        await engine.play(samples, timeoutSeconds: timeoutSeconds, shouldStop: shouldStop)
    }

    /// Plays a stream of parts back to back (`Engine.play(parts:)`).
    public func play(parts next: () throws -> [Float]?, stallSeconds: Double = 10,
                     shouldStop: @Sendable () -> Bool = { false }) async throws -> Bool {
        try await engine.play(parts: next, stallSeconds: stallSeconds, shouldStop: shouldStop)
    }
}
