import Synchronization

/// Pre-rendered audio handed from the control side to the audio thread, which
/// adds it to the output: modem transmissions, test signals, anything too
/// long or too irregular to synthesise inside the callback.
///
/// The non-real-time side renders samples and `enqueue`s them (as many as fit;
/// a feeder tops the queue up as it drains); the audio thread `mix`es what is
/// there into each period and counts what it played. An empty queue adds
/// nothing, so the player is silent between transmissions.
///
/// Ordering: the samples travel through an `SPSCRing` (its own acquire/release
/// pairs); `playedFrames` is stored `.releasing` by the audio thread after the
/// samples are in the output buffer and loaded `.acquiring` by the control side.
public struct SamplePlayer: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: `scratch` is touched only by the audio thread; the
    // rest is the ring and atomics.
    @usableFromInline let ring: SPSCRing
    /// Audio-thread scratch for one chunk read out of the ring.
    private let scratch: UnsafeMutablePointer<Float>
    private let scratchFrames = 1024
    /// Frames mixed into the output since creation (audio thread writes).
    public let playedFrames = Atomic<Int>(0)

    /// - Parameter capacityFrames: how much can be queued ahead of the audio thread.
    public init(capacityFrames: Int) {
        ring = SPSCRing(of: Float.self, minimumCapacity: capacityFrames)
        scratch = .allocate(capacity: scratchFrames)
        scratch.initialize(repeating: 0, count: scratchFrames)
    }

    deinit { scratch.deallocate() }

    // MARK: - Control side (one producer thread)

    /// Queues as many of `samples` as fit, from the start. Producer only.
    /// - Returns: how many were queued (the caller queues the rest later).
    public func enqueue(_ samples: UnsafeBufferPointer<Float>) -> Int {
        guard let base = samples.baseAddress else { return 0 }
        let count = min(samples.count, ring.writableCount)
        guard count > 0, ring.write(base, count: count) else { return 0 }
        return count
    }

    /// Frames queued since creation (played or not). Producer only.
    public var enqueuedFrames: Int { ring.producedCount }

    /// Whether everything queued so far has gone out to the output port.
    public var isDrained: Bool { playedFrames.load(ordering: .acquiring) >= ring.producedCount }

    // MARK: - Audio thread

    /// Adds up to `frames` queued samples to `output`. Audio thread only.
    ///
    /// `@inlinable`: a renderer's period inlines the check for an empty queue
    /// (most periods); mixing what is queued is a call.
    @inlinable @inline(__always) @_noLocks
    public func mix(into output: UnsafeMutablePointer<Float>, frames: Int) {
        if ring.readableCount > 0 { mixQueued(into: output, frames: frames) }
    }

    /// `mix` when something is queued.
    @usableFromInline @inline(never) @_noLocks
    func mixQueued(into output: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let got = ring.readRaw(into: scratch, maxCount: min(scratchFrames, frames - done))
            if got == 0 { break }
            for index in 0..<got { output[done + index] += scratch[index] }
            done += got
        }
        if done > 0 { playedFrames.wrappingAdd(done, ordering: .releasing) }
    }
}
