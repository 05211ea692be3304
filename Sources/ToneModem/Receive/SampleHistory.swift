/// The most recent samples of a stream, addressed by stream position.
///
/// Worker only. Storage is allocated once; appending moves the kept tail to the
/// front when the buffer is full (a memmove of at most `capacity` floats).
final class SampleHistory {
    let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    /// Stream position of `storage[0]`.
    private(set) var startPosition: Int = 0
    private(set) var count: Int = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    /// Stream position one past the newest sample.
    var endPosition: Int { startPosition + count }

    /// Appends samples, dropping the oldest ones when the buffer is full.
    /// - Parameter keepFrom: the oldest position still needed; older samples may be dropped first.
    func append(_ samples: UnsafeBufferPointer<Float>, keepFrom: Int) {
        precondition(samples.count <= capacity / 2)
        if count + samples.count > capacity {
            // Drop everything not needed (not just enough), so compaction stays rare.
            let needed = max(keepFrom, endPosition + samples.count - capacity)
            let drop = min(count, max(0, needed - startPosition))
            if drop > 0 {
                // Forward copy to a lower address: safe although the ranges overlap.
                for index in 0..<(count - drop) { storage[index] = storage[index + drop] }
                startPosition += drop
                count -= drop
            }
        }
        for index in 0..<samples.count {
            let value = samples[index]
            // Non-finite input (a broken peer) counts as silence.
            storage[count + index] = value.isFinite ? max(-1e6, min(1e6, value)) : 0
        }
        count += samples.count
    }

    /// Forgets everything and continues at `position`.
    func reset(at position: Int) {
        startPosition = position
        count = 0
    }

    /// A pointer to the sample at `position`, valid for `length` samples, or nil
    /// when part of that range is not held.
    func pointer(at position: Int, length: Int) -> UnsafePointer<Float>? {
        guard position >= startPosition, position + length <= endPosition, length >= 0 else { return nil }
        return UnsafePointer(storage + (position - startPosition))
    }
}
