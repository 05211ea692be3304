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
    /// `Node.play`, for a task that holds only the engine's playback (`NodePlayback`).
    /// One caller at a time: the queue has one producer.
    @discardableResult
    func play(_ samples: [Float], timeoutSeconds: Double? = nil,
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

extension Engine {
    /// Plays a stream of pre-rendered parts back to back on `out`: `next`
    /// renders the next part (on the caller's task, never the audio thread)
    /// once the one before is all queued, so rendering runs while the queue
    /// (`playbackSeconds` of it) plays and a stream of any length needs the
    /// memory of one part. Returns once the last sample has left the port.
    ///
    /// - Parameters:
    ///   - stallSeconds: give up when nothing was played for this long (a stopped server).
    ///   - shouldStop: polled every 5 ms; true gives up (a signal).
    /// - Returns: whether every sample went out.
    /// One caller at a time: the queue has one producer.
    func play(parts next: () throws -> [Float]?, stallSeconds: Double = 10,
                     shouldStop: @Sendable () -> Bool = { false }) async throws -> Bool {
        let start = player.enqueuedFrames
        var part = try next() ?? []
        var queued = 0
        var total = part.count
        var finished = part.isEmpty
        var lastPlayed = 0
        var lastProgress = Date()
        while !shouldStop() {
            if queued < part.count {
                queued += part.withUnsafeBufferPointer { player.enqueue(UnsafeBufferPointer(rebasing: $0[queued...])) }
            }
            if queued == part.count && !finished {
                if let following = try next() {
                    part = following
                    queued = 0
                    total += part.count
                    continue
                }
                finished = true
            }
            let played = player.playedFrames.load(ordering: .acquiring) - start
            if finished && played >= total { return true }
            if played != lastPlayed {
                lastPlayed = played
                lastProgress = Date()
            } else if Date().timeIntervalSince(lastProgress) > stallSeconds {
                return false
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}
