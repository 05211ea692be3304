import CJack

/// The hand-over between one JACK client's threads and its owner: owns the C
/// `tn_bridge` that the process, xrun, shutdown and latency callbacks use.
///
/// Per period the process callback (C, in CJack's shim) fetches the port
/// buffers and the MIDI events, calls the `RenderFunction` with the renderer,
/// counts the cycle and wakes a waiting thread once `wakeEveryFrames` frames
/// have passed, or, while `watchForSound` is on, once at the first input
/// sample other than ±0. The xrun and shutdown callbacks count and flag.
///
/// Lifetime: the bridge keeps the renderer alive, and the owner keeps the
/// bridge alive until the client is closed (`JackClient.close` returns), so
/// neither goes while a callback may run.
///
/// Threads: `init` on the main thread before `JackClient.activate`; `wait`
/// on one thread at a time (the worker, or the main thread that measures);
/// `post` and the counters from any thread.
///
/// Ordering (C `__atomic` builtins: CJack's shim.h writes, bridge.h reads): the process callback's
/// releasing increment of the cycle count pairs with `cycles`' acquiring load,
/// so a reader that sees period n also sees what the renderer published in it;
/// the shutdown callback's releasing store pairs with `isShutdown`'s acquiring
/// load. `xruns` and `midiDropped` are plain counters (relaxed).
public final class ProcessBridge: @unchecked Sendable {
    // @unchecked Sendable: after `init` Swift never writes `bridge`'s fields;
    // the callbacks and the readers below share only the counters and the
    // flag, which the C side reads and writes with __atomic builtins, and the
    // semaphore, which is thread-safe. `renderer` is only held, never used.

    /// The render entry point the process callback calls every period,
    /// with the port buffers already fetched. JACK thread.
    ///
    /// One tiny function per renderer, all of one pattern: `@_noLocks`,
    /// enter through `Unmanaged<Renderer>.fromOpaque(context)._withUnsafeGuaranteedRef`
    /// (no retain: the bridge holds the renderer), read `midi` as
    /// `midiCount` `MIDIEvent`s, and call the renderer's `@_noLocks` render.
    /// Arguments: renderer, inputs and outputs per channel, channels, frames, MIDI events, their count,
    /// then the outgoing MIDI events (room for `maximumMIDIEvents` `MIDIEvent`s; nil without a MIDI
    /// output port) and where to store their count (0 on entry). The shim writes the outgoing
    /// events to the port at their frames after the render returns.
    public typealias RenderFunction = @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<UnsafePointer<Float>?>?, UnsafePointer<UnsafeMutablePointer<Float>?>?,
        UInt32, UInt32, UnsafeRawPointer?, UInt32, UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt32>?) -> Void

    /// MIDI events a period carries at most, in and out.
    public static let maximumMIDIEvents = Int(TN_MAX_MIDI_EVENTS)

    /// Audio channels a bridge carries at most.
    public static let maximumChannels = Int(TN_MAX_CHANNELS)

    private let bridge: UnsafeMutablePointer<tn_bridge>
    /// Kept alive for as long as the callbacks may call `render` with it.
    private let renderer: AnyObject
    /// The period a callback profile is measured against (the server's when the bridge was made).
    private let periodFrames: Int
    private let sampleRateHz: Int
    /// The server's period and its changes while the client runs (JACK's buffer-size callback).
    public let periodWatch: PeriodWatch

    /// Makes the bridge and installs the client's callbacks (process, xrun,
    /// shutdown, latency). Call before `client.activate()`.
    /// - Parameters:
    ///   - channels: one input and one output port per audio channel, in channel order; a
    ///     nil input reads silence, a nil output is written to a scratch buffer (periods up
    ///     to 16384 frames; longer ones are skipped).
    ///   - midiInput: a MIDI input port whose short messages reach `render`.
    ///   - midiOutput: a MIDI output port that carries the messages `render` writes.
    ///   - wakeEveryFrames: wake a waiting thread once this many frames have
    ///     passed since the last wake (0: every period). Every post to a
    ///     waiting thread is a syscall on the JACK thread; a worker that can do
    ///     nothing with less than a hop needs no more. nil: never (the
    ///     waiting thread keeps time itself; posts and shutdowns still wake it).
    ///   - profilesCallback: time every process callback into a histogram
    ///     (`callbackProfile`); off, the callback pays two NULL tests.
    ///   - xrunsFromFrameTime: count as `xruns` the periods where this
    ///     client's frame time jumped (an xrun that reached it) instead of
    ///     the server's xrun notifications. No xrun callback then: jack2
    ///     notifies every client that has one once for every client late in
    ///     an xrun, a wake of each one's notification thread, so many nodes on
    ///     an overloaded server would multiply the load that made the xrun.
    ///   - renderer: the object `render` receives as its context.
    /// - Throws: `JackError.callbackSetupFailed` when the bridge cannot be
    ///   made or JACK refuses a callback.
    public init(client: JackClient, channels: [(input: OpaquePointer?, output: OpaquePointer?)],
                midiInput: OpaquePointer? = nil, midiOutput: OpaquePointer? = nil, wakeEveryFrames: Int? = 0, profilesCallback: Bool = false,
                xrunsFromFrameTime: Bool = false, renderer: AnyObject, render: RenderFunction) throws {
        precondition(Self.midiLayoutMatches, "MIDIEvent must have tn_midi_event's layout")
        precondition(!channels.isEmpty && channels.count <= Self.maximumChannels,
                     "1…\(Self.maximumChannels) channels")
        guard let bridge = tn_bridge_create() else { throw JackError.callbackSetupFailed(0) }
        for (index, ports) in channels.enumerated() {
            tn_bridge_set_channel(bridge, UInt32(index), ports.input, ports.output)
        }
        tn_bridge_set_midi_input(bridge, midiInput)
        tn_bridge_set_midi_output(bridge, midiOutput)
        tn_bridge_set_render(bridge, render, Unmanaged.passUnretained(renderer).toOpaque())
        bridge.pointee.wake_every_frames = wakeEveryFrames.map { UInt32(clamping: min($0, Int(TN_NEVER_WAKE) - 1)) }
            ?? TN_NEVER_WAKE
        bridge.pointee.xruns_from_frame_time = xrunsFromFrameTime ? 1 : 0
        if profilesCallback && tn_bridge_enable_profile(bridge) != 0 {
            tn_bridge_destroy(bridge)
            throw JackError.callbackSetupFailed(0)
        }
        do { periodWatch = try PeriodWatch(client: client) } catch {
            tn_bridge_destroy(bridge)
            throw error
        }
        let step = tn_bridge_install(client.handle, bridge)
        guard step == 0 else {
            // Not activated: JACK never calls the callbacks just installed.
            tn_bridge_destroy(bridge)
            throw JackError.callbackSetupFailed(step)
        }
        self.bridge = bridge
        self.renderer = renderer
        periodFrames = client.bufferFrames
        sampleRateHz = client.sampleRateHz
    }

    deinit { tn_bridge_destroy(bridge) }

    /// Whether `MIDIEvent` and the shim's `tn_midi_event` agree field by field.
    static var midiLayoutMatches: Bool {
        typealias C = tn_midi_event
        return MemoryLayout<MIDIEvent>.size == MemoryLayout<C>.size
            && MemoryLayout<MIDIEvent>.stride == MemoryLayout<C>.stride
            && MemoryLayout<MIDIEvent>.alignment == MemoryLayout<C>.alignment
            && MemoryLayout<MIDIEvent>.offset(of: \.time) == MemoryLayout<C>.offset(of: \.time)
            && MemoryLayout<MIDIEvent>.offset(of: \.size) == MemoryLayout<C>.offset(of: \.size)
            && MemoryLayout<MIDIEvent>.offset(of: \.data) == MemoryLayout<C>.offset(of: \.data)
    }

    // MARK: - Readers (any thread)

    /// Waits for the next wake (a period, `post`, a server shutdown) or the timeout.
    /// Several wakes that piled up count as one. One waiting thread at a time.
    /// - Returns: whether it was woken (false: timed out).
    @discardableResult
    public func wait(timeoutMilliseconds: Int) -> Bool {
        tn_bridge_wait(bridge, Int32(clamping: timeoutMilliseconds)) != 0
    }

    /// Wakes the waiting thread without a period (to stop it).
    public func post() { tn_bridge_post(bridge) }

    /// Whether the process callback looks at the inputs each period and, on
    /// the first sample other than ±0, clears this and wakes the waiting
    /// thread once (an idle worker that sleeps long sets it). Setting it is
    /// ordered before the caller's next read of what the callback captured:
    /// sound in a period the callback ended earlier is there to read.
    public func watchForSound(_ on: Bool) { tn_bridge_watch_sound(bridge, on ? 1 : 0) }

    /// Xruns the server reported to this client, or (`xrunsFromFrameTime`)
    /// the periods where its frame time jumped or its callback began more
    /// than two periods after the last.
    public var xruns: Int { Int(tn_bridge_xruns(bridge)) }

    /// Periods processed since activation.
    public var cycles: Int { Int(tn_bridge_cycles(bridge)) }

    /// Whether the server shut the client down (the server went away).
    public var isShutdown: Bool { tn_bridge_is_shutdown(bridge) != 0 }

    /// Sets `isShutdown` and wakes the waiting thread, as the shutdown
    /// callback does: the server was found gone without libjack saying so.
    public func markServerGone() { tn_bridge_mark_shutdown(bridge) }

    /// The callback's durations so far, when made with `profilesCallback`;
    /// against the period the server ran when the bridge was made.
    public var callbackProfile: CallbackProfile? {
        guard let profile = bridge.pointee.profile else { return nil }
        return CallbackProfile.read(profile, periodFrames: periodFrames, sampleRateHz: sampleRateHz)
    }

    /// MIDI messages dropped because a period brought more than the bridge holds.
    public var midiDropped: Int { Int(tn_bridge_midi_dropped(bridge)) }

    /// Outgoing MIDI messages the port could not take (no room, or out of order).
    public var midiOutDropped: Int { Int(tn_bridge_midi_out_dropped(bridge)) }

    // MARK: - Worker threads

    /// The calling thread's kernel id (its /proc/self/task entry).
    public static func callingThreadID() -> Int32 { tn_this_thread_id() }

    /// Names the calling thread for the kernel (`top -H`, `/proc/PID/task/TID/comm`;
    /// 15 bytes at most): Foundation's `Thread.name` did not reach it (the
    /// worker showed as `root.default-qos` in `perf`).
    public static func nameCallingThread(_ name: String) { _ = tn_name_this_thread(name) }

    /// Raises the nice value of the calling thread only, so that on a server
    /// without real-time scheduling a worker never competes with JACK's
    /// process threads for a core.
    /// - Returns: whether the system accepted it.
    @discardableResult
    public static func reniceCallingThread(_ niceValue: Int32) -> Bool {
        tn_renice_this_thread(niceValue) == 0
    }

    /// `reniceCallingThread`, once per thread (a thread-local flag; later
    /// calls cost a load): for code that runs on whichever thread of a pool
    /// picks it up, such as a task reading a node's events.
    @discardableResult
    public static func reniceCallingThreadOnce(_ niceValue: Int32) -> Bool {
        tn_renice_this_thread_once(niceValue) == 0
    }
}
