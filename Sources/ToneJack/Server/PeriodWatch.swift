import CJack
import Synchronization

/// The server's period (buffer size, PipeWire's quantum) and how often it
/// changed while a client ran: PipeWire changes it whenever a client asks
/// for a lower latency (`pw-metadata -n settings 0 clock.force-quantum N`),
/// jackd2 on `jack_bufsize N`. JACK's buffer-size callback
/// (`jack_set_buffer_size_callback`) stores it; the worker and the owner read it.
/// The sample rate likewise (`jack_set_sample_rate_callback`): PipeWire
/// changes it under running clients (`pw-metadata -n settings 0
/// clock.force-rate N`, docs/pipewire.md); jackd2 never does.
///
/// Ordering: one atomic word holds each (changes in the high 32 bits, the
/// value in the low), so a reader never sees a count with another change's
/// value; relaxed, it orders nothing else.
public final class PeriodWatch: @unchecked Sendable {
    // @unchecked Sendable: `state` is written by the callback and read by
    // anyone, only through its atomic; it lives until the watch goes, which
    // its owner (`ProcessBridge`) keeps until the client is closed.
    // `state` is the period's word, `state + 1` the sample rate's.
    private let state: UnsafeMutablePointer<Atomic<UInt64>>

    /// Installs the buffer-size and sample-rate callbacks. Main thread, before `JackClient.activate`.
    /// - Throws: `JackError.callbackSetupFailed` when JACK refuses one.
    public init(client: JackClient) throws {
        state = .allocate(capacity: 2)
        state.initialize(to: Atomic(UInt64(UInt32(clamping: client.bufferFrames))))
        (state + 1).initialize(to: Atomic(UInt64(UInt32(clamping: client.sampleRateHz))))
        var code = jack_set_buffer_size_callback(client.handle, valueChanged, UnsafeMutableRawPointer(state))
        if code == 0 { code = jack_set_sample_rate_callback(client.handle, valueChanged, UnsafeMutableRawPointer(state + 1)) }
        guard code == 0 else {
            state.deinitialize(count: 2)
            state.deallocate()
            throw JackError.callbackSetupFailed(code)
        }
    }

    deinit {
        state.deinitialize(count: 2)
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

    /// The sample rate's changes since the client was activated, and the rate the last one set (Hz).
    public var sampleRate: (changes: Int, rateHz: Int) {
        let word = (state + 1).pointee.load(ordering: .relaxed)
        return (Int(word >> 32), Int(word & 0xFFFF_FFFF))
    }
}

/// JACK's buffer-size and sample-rate callbacks (its notification or process
/// thread, as the server chooses): one atomic word, no call, no lock.
@_noLocks
private func valueChanged(_ frames: jack_nframes_t, _ context: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return 0 }
    // safe: the context is one of the watch's state words, alive while the client may call back.
    let state = context.assumingMemoryBound(to: Atomic<UInt64>.self)
    let old = state.pointee.load(ordering: .relaxed)
    guard UInt32(truncatingIfNeeded: old) != frames else { return 0 }
    // One writer (JACK calls it on one thread at a time): load, then store.
    state.pointee.store(((old >> 32) + 1) << 32 | UInt64(frames), ordering: .relaxed)
    return 0
}
