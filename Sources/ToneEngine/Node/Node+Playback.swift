import Foundation
import ToneCore
import ToneDSP
import ToneJack

extension Node {
    /// Plays pre-rendered samples on `out` (added to the tone, so mute the
    /// tone to send them alone), topping up the engine's queue as it drains,
    /// and returns once the last sample has been written to the output port.
    ///
    /// - Parameters:
    ///   - samples: at the node's sample rate.
    ///   - timeoutSeconds: give up after this long (a stopped server, say).
    ///   - shouldStop: polled every 5 ms; true gives up (a signal).
    /// - Returns: whether every sample went out.
    /// The node's task (or any one thread at a time: the queue has one producer).
    @discardableResult
    public func play(_ samples: [Float], timeoutSeconds: Double? = nil,
                     shouldStop: @Sendable () -> Bool = { false }) async -> Bool {
        await engine.play(samples, timeoutSeconds: timeoutSeconds, shouldStop: shouldStop)
    }
}

extension Engine {
    /// `Node.play`, for a task that holds only the engine (`run --send`).
    /// One caller at a time: the queue has one producer.
    @discardableResult
    public func play(_ samples: [Float], timeoutSeconds: Double? = nil,
                     shouldStop: @Sendable () -> Bool = { false }) async -> Bool {
        let engine = self
        let start = engine.player.enqueuedFrames
        var queued = 0
        let limit = timeoutSeconds ?? (Double(samples.count) / engine.sampleRateHz + 10)
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline && !shouldStop() {
            if queued < samples.count {
                queued += samples.withUnsafeBufferPointer { all in
                    engine.player.enqueue(UnsafeBufferPointer(rebasing: all[queued...]))
                }
            }
            let played = engine.player.playedFrames.load(ordering: .acquiring) - start
            if queued == samples.count && played >= samples.count { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}
