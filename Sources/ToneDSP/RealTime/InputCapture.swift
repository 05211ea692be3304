import Synchronization

/// A gap in the captured input: `frames` samples were dropped just before
/// stream position `position` (counted in frames the ring has carried).
public struct CaptureGap: BitwiseCopyable, Sendable, Equatable {
    public var position: Int
    public var frames: Int
    public init(position: Int, frames: Int) {
        self.position = position
        self.frames = frames
    }
}

/// The hand-over of input audio from the JACK thread to the analysis worker.
///
/// Frames go through an `SPSCRing<Float>`. When the worker falls behind the
/// whole period is dropped (the JACK thread never waits) and the drop is
/// recorded as a `CaptureGap` in a second small ring, so the worker knows
/// exactly where the stream is discontinuous and how much time it lost.
public struct InputCapture: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: producer state (`pendingGapFrames`) is touched only
    // by the producer; everything shared goes through the two SPSC rings and
    // atomics.
    /// `Float` samples.
    public let frames: SPSCRing
    /// `CaptureGap` records.
    public let gaps: SPSCRing
    /// Periods dropped because a ring was full (producer writes, anyone reads).
    public let overflowCount = Atomic<Int>(0)
    /// Frames dropped in total.
    public let droppedFrames = Atomic<Int>(0)
    /// Frames dropped since the last published gap (producer only; an atomic
    /// for its place inline, not for sharing: relaxed).
    @usableFromInline let pendingGapFrames = Atomic<Int>(0)

    public init(capacityFrames: Int) {
        frames = SPSCRing(of: Float.self, minimumCapacity: capacityFrames)
        gaps = SPSCRing(of: CaptureGap.self, minimumCapacity: 64)
    }

    // MARK: - Producer (audio thread)

    /// Appends one period of input. Audio thread only.
    ///
    /// Room for the frames is checked before a pending gap is published, so a
    /// gap always goes out together with the frames that follow it: an
    /// overflow lasting many periods is one gap, not one per period (which
    /// would fill the gap ring with gaps at the same position).
    ///
    /// `@inlinable`: a renderer's period inlines the common case (room, no
    /// gap pending); an overflow or a pending gap is a call.
    @inlinable @inline(__always) @_noLocks
    public func capture(_ source: UnsafePointer<Float>, count: Int) {
        guard count > 0 else { return }
        guard count <= frames.writableCount, pendingGapFrames.load(ordering: .relaxed) == 0 else {
            captureAfterGap(source, count: count)
            return
        }
        // Cannot fail: only the consumer changes the free space, and it only grows it.
        _ = frames.write(source, count: count)
    }

    /// `capture` when the ring is full or a gap waits to be published.
    @usableFromInline @inline(never) @_noLocks
    func captureAfterGap(_ source: UnsafePointer<Float>, count: Int) {
        guard count <= frames.writableCount else {
            drop(count)
            return
        }
        let pending = pendingGapFrames.load(ordering: .relaxed)
        if pending > 0 {
            // The gap goes first: the consumer stops at its position only if
            // it is visible before any frame that follows it.
            var gap = CaptureGap(position: frames.producedCount, frames: pending)
            guard gaps.write(&gap, count: 1) else {
                drop(count)
                return
            }
            pendingGapFrames.store(0, ordering: .relaxed)
        }
        _ = frames.write(source, count: count)
    }

    /// Counts a dropped period; it is published as a gap with the next period that fits.
    @_noLocks
    private func drop(_ count: Int) {
        overflowCount.wrappingAdd(1, ordering: .relaxed)
        pendingGapFrames.wrappingAdd(count, ordering: .relaxed)
        droppedFrames.wrappingAdd(count, ordering: .relaxed)
    }

    // MARK: - Consumer (worker)

    /// Reads frames up to the next gap. Worker only.
    /// - Returns: frames read, and the gap that follows them if the read
    ///   stopped at one (the gap is consumed).
    public func read(into destination: UnsafeMutablePointer<Float>, maxCount: Int) -> (count: Int, gap: CaptureGap?) {
        // Snapshot the frames first: any frame published after a gap was
        // published after that gap, so the gap peek below cannot miss it.
        let available = frames.readableCount
        let position = frames.consumedCount
        var limit = min(maxCount, available)
        if let gap = gaps.peek(as: CaptureGap.self) {
            if gap.position <= position {
                var consumed = gap
                _ = gaps.read(into: &consumed, maxCount: 1)
                return (0, consumed)
            }
            limit = min(limit, gap.position - position)
        }
        return (frames.read(into: destination, maxCount: limit), nil)
    }
}
