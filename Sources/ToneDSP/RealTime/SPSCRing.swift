import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A lock-free single-producer / single-consumer ring of fixed-size elements.
///
/// The producer (the JACK thread) writes whole blocks or nothing, so it never
/// waits: when the consumer has fallen behind, `write` returns `false` and the
/// caller counts the overflow. Indices grow monotonically and are masked into
/// power-of-two storage. The ring stores raw bytes with a stride fixed at
/// creation, so the producer's path is non-generic and `@_noLocks`-checked;
/// the consumer reads typed values.
///
/// Ordering: the producer's `writeIndex.store(.releasing)` publishes the
/// elements it copied and pairs with the consumer's `writeIndex.load(.acquiring)`;
/// the consumer's `readIndex.store(.releasing)` hands the slots back and pairs
/// with the producer's `readIndex.load(.acquiring)`.
public struct SPSCRing: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: the storage is shared by exactly one producer and one
    // consumer, and every slot is handed over by the acquire/release pairs above.
    // `@usableFromInline`: the real-time producer and consumer methods are
    // `@inlinable`, so a renderer's period inlines them (its code on few pages).
    @usableFromInline let storage: UnsafeMutableRawPointer
    @usableFromInline let stride: Int
    /// Whether `mlock` took the storage (undone in deinit).
    private let isLocked: Bool
    @usableFromInline let mask: Int
    /// Capacity in elements (a power of two).
    public let capacity: Int
    @usableFromInline let writeIndex = Atomic<Int>(0)
    @usableFromInline let readIndex = Atomic<Int>(0)

    /// - Parameter minimumCapacity: in elements, rounded up to a power of two.
    public init<Element: BitwiseCopyable>(of _: Element.Type, minimumCapacity: Int) {
        var size = 1
        while size < max(2, minimumCapacity) { size <<= 1 }
        capacity = size
        mask = size - 1
        stride = MemoryLayout<Element>.stride
        storage = .allocate(byteCount: size * stride, alignment: MemoryLayout<Element>.alignment)
        // Pre-fault: written once here, so the real-time producer never takes
        // a first-touch page fault (a large ring is fresh mmap'd memory).
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: size * stride)
        // And locked where RLIMIT_MEMLOCK allows, so it is never paged out;
        // refused (an unprivileged user's small limit), it is only pre-faulted.
        isLocked = mlock(storage, size * stride) == 0
    }

    deinit {
        if isLocked { munlock(storage, capacity * stride) }
        storage.deallocate()
    }

    // MARK: - Producer

    /// Copies all `count` elements from `source` in, or nothing when there is
    /// not room. Producer only; never blocks or allocates.
    @inlinable @inline(__always) @_noLocks
    public func write(_ source: UnsafeRawPointer, count: Int) -> Bool {
        let write = writeIndex.load(ordering: .relaxed)
        let read = readIndex.load(ordering: .acquiring)
        guard count >= 0, count <= capacity - (write - read) else { return false }
        let start = write & mask
        let first = min(count, capacity - start)
        (storage + start * stride).copyMemory(from: source, byteCount: first * stride)
        if first < count {
            storage.copyMemory(from: source + first * stride, byteCount: (count - first) * stride)
        }
        writeIndex.store(write + count, ordering: .releasing)
        return true
    }

    /// Free slots: a `write` of up to this many elements will succeed.
    /// Producer only (the consumer can only make it grow).
    public var writableCount: Int {
        @inlinable @_noLocks get { capacity - (writeIndex.load(ordering: .relaxed) - readIndex.load(ordering: .acquiring)) }
    }

    /// Producer-side position: elements written since creation.
    public var producedCount: Int {
        @inlinable @_noLocks get { writeIndex.load(ordering: .relaxed) }
    }

    // MARK: - Consumer

    /// Elements ready to read. Consumer only.
    public var readableCount: Int {
        @inlinable @_noLocks get { writeIndex.load(ordering: .acquiring) - readIndex.load(ordering: .relaxed) }
    }

    /// Consumer-side position: elements read since creation.
    public var consumedCount: Int { readIndex.load(ordering: .relaxed) }

    /// Copies up to `maxCount` elements out. Consumer only.
    /// - Returns: how many were copied.
    public func read<Element: BitwiseCopyable>(into destination: UnsafeMutablePointer<Element>, maxCount: Int) -> Int {
        precondition(MemoryLayout<Element>.stride == stride, "ring read with the wrong element type")
        return readRaw(into: UnsafeMutableRawPointer(destination), maxCount: maxCount)
    }

    /// Copies up to `maxCount` elements out as raw bytes (`destination` holds
    /// `maxCount` elements of the ring's stride): the non-generic twin of
    /// `read`, for a consumer on the audio thread (`@_noLocks`-checked).
    /// Consumer only; never blocks. - Returns: how many elements were copied.
    @inlinable @inline(__always) @_noLocks
    public func readRaw(into destination: UnsafeMutableRawPointer, maxCount: Int) -> Int {
        let read = readIndex.load(ordering: .relaxed)
        let write = writeIndex.load(ordering: .acquiring)
        let count = min(maxCount, write - read)
        guard count > 0 else { return 0 }
        let start = read & mask
        let first = min(count, capacity - start)
        destination.copyMemory(from: storage + start * stride, byteCount: first * stride)
        if first < count {
            (destination + first * stride).copyMemory(from: storage, byteCount: (count - first) * stride)
        }
        readIndex.store(read + count, ordering: .releasing)
        return count
    }

    /// Looks at the oldest element without consuming it. Consumer only.
    public func peek<Element: BitwiseCopyable>(as _: Element.Type) -> Element? {
        precondition(MemoryLayout<Element>.stride == stride, "ring peek with the wrong element type")
        let read = readIndex.load(ordering: .relaxed)
        guard writeIndex.load(ordering: .acquiring) > read else { return nil }
        return storage.load(fromByteOffset: (read & mask) * stride, as: Element.self)
    }
}
