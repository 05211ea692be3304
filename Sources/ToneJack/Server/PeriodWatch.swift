import CJack
import Synchronization

/// The server's period (buffer size, PipeWire's quantum) and how often it
/// changed while a client ran: PipeWire changes it whenever a client asks
/// for a lower latency (`pw-metadata -n settings 0 clock.force-quantum N`),
/// jackd2 on `jack_bufsize N`. JACK's buffer-size callback
/// (`jack_set_buffer_size_callback`) stores it; the worker and the owner read it.
///
/// Ordering: one atomic word holds both (changes in the high 32 bits, the
/// period in the low), so a reader never sees a count with another change's
/// period; relaxed, it orders nothing else.
public final class PeriodWatch: @unchecked Sendable {
    // @unchecked Sendable: `state` is written by the callback and read by
    // anyone, only through its atomic; it lives until the watch goes, which
    // its owner (`ProcessBridge`) keeps until the client is closed.
    private let state: UnsafeMutablePointer<Atomic<UInt64>>

    /// Installs the buffer-size callback. Main thread, before `JackClient.activate`.
    /// - Throws: `JackError.callbackSetupFailed` when JACK refuses it.
    public init(client: JackClient) throws {
        state = .allocate(capacity: 1)
        state.initialize(to: Atomic(UInt64(UInt32(clamping: client.bufferFrames))))
        let code = jack_set_buffer_size_callback(client.handle, periodChanged, UnsafeMutableRawPointer(state))
        guard code == 0 else {
            state.deinitialize(count: 1)
            state.deallocate()
            throw JackError.callbackSetupFailed(code)
        }
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The period now, in frames.
    public var periodFrames: Int { Int(state.pointee.load(ordering: .relaxed) & 0xFFFF_FFFF) }

    /// Changes seen since the client was activated (a callback that repeats
    /// the period it had, as JACK's first one may, is none).
    public var changes: Int { Int(state.pointee.load(ordering: .relaxed) >> 32) }

    /// Both at once: `changes` and the `periodFrames` the last one set.
    public var snapshot: (changes: Int, periodFrames: Int) {
        let word = state.pointee.load(ordering: .relaxed)
        return (Int(word >> 32), Int(word & 0xFFFF_FFFF))
    }
}

/// JACK's buffer-size callback (its notification or process thread, as the
/// server chooses): one atomic word, no call, no lock.
@_noLocks
private func periodChanged(_ frames: jack_nframes_t, _ context: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return 0 }
    // safe: the context is the watch's state word, alive while the client may call back.
    let state = context.assumingMemoryBound(to: Atomic<UInt64>.self)
    let old = state.pointee.load(ordering: .relaxed)
    guard UInt32(truncatingIfNeeded: old) != frames else { return 0 }
    // One writer (JACK calls it on one thread at a time): load, then store.
    state.pointee.store(((old >> 32) + 1) << 32 | UInt64(frames), ordering: .relaxed)
    return 0
}
