import Synchronization
import ToneCore
import ToneDSP
import ToneJack

/// The real-time half of the node: what runs inside the JACK process callback.
///
/// Its state is inline and pre-allocated: the generator lives behind a pointer
/// allocated in `init`, controls arrive through a preallocated SPSC ring of
/// `GeneratorCommand`s, the input hand-over is an `InputCapture` ring. No
/// class-typed property is touched by `render`.
///
/// Controls: any thread may `send` (senders are serialised by a mutex on the
/// control side; the audio thread never takes it); `render` drains the ring
/// at the start of each period, then applies the period's MIDI events at
/// their frame offsets.
///
/// Ordering: the command, capture and playback rings pair their own release
/// and acquire (see `SPSCRing`); the counters below are statistics, updated
/// and read relaxed, and publish nothing.
public final class Engine: @unchecked Sendable {
    // @unchecked Sendable: `generator` and `commandScratch` are used only by the
    // audio thread after activation (and by `init` before it); `commands` is an
    // SPSC ring (its producer side is serialised by `producer`), the rest are atomics.
    private let generator: UnsafeMutablePointer<ToneGenerator>
    /// Input hand-over to the worker (channel 0).
    public let capture: InputCapture
    /// Pre-rendered audio (modem transmissions, test signals) added to `out`.
    public let player: SamplePlayer
    /// Channels 1… (`channels - 1` of them).
    private let moreCaptures: UnsafeMutablePointer<InputCapture>
    /// Audio channels: outputs all play the tone, inputs are captured one ring each.
    public let channels: Int
    private let commands: SPSCRing
    private let producer = Mutex<Void>(())
    private let commandScratch: UnsafeMutablePointer<GeneratorCommand>
    private static let commandBatch = 64
    /// Frames rendered since activation (audio thread writes).
    public let renderedFrames = Atomic<Int>(0)
    /// Control commands applied (audio thread writes; tests read).
    public let appliedCommands = Atomic<Int>(0)
    /// MIDI messages applied (audio thread writes; tests read).
    public let midiMessages = Atomic<Int>(0)
    public let sampleRateHz: Double

    /// - Parameters:
    ///   - amplitude: peak amplitude of the tone's level (the level a note of velocity 127 plays at).
    ///   - muted: start silent.
    ///   - a4Hz, bendRangeSemitones: tuning of MIDI notes and pitch bend.
    ///   - rampSeconds: length of frequency/level ramps (click-free changes).
    ///   - captureSeconds: how much input the ring holds before it overflows.
    ///   - playbackSeconds: how much pre-rendered audio can be queued ahead.
    public init(sampleRateHz: Double, frequencyHz: Double, amplitude: Double, muted: Bool = false,
                a4Hz: Double = EqualTemperament.standardA4Hz,
                bendRangeSemitones: Double = ToneGenerator.defaultBendRangeSemitones,
                rampSeconds: Double = ToneGenerator.defaultRampSeconds, captureSeconds: Double = 4, playbackSeconds: Double = 4,
                channels: Int = 1) {
        self.sampleRateHz = sampleRateHz
        self.channels = max(1, channels)
        moreCaptures = .allocate(capacity: max(1, channels - 1))
        for index in 0..<max(0, channels - 1) {
            (moreCaptures + index).initialize(to: InputCapture(capacityFrames: Int(captureSeconds * sampleRateHz)))
        }
        generator = .allocate(capacity: 1)
        generator.initialize(to: ToneGenerator(
            sampleRateHz: sampleRateHz, frequencyHz: frequencyHz, levelAmplitude: amplitude, muted: muted,
            rampFrames: max(1, Int(rampSeconds * sampleRateHz)), a4Hz: a4Hz, bendRangeSemitones: bendRangeSemitones))
        capture = InputCapture(capacityFrames: Int(captureSeconds * sampleRateHz))
        player = SamplePlayer(capacityFrames: Int(playbackSeconds * sampleRateHz))
        commands = SPSCRing(of: GeneratorCommand.self, minimumCapacity: 256)
        commandScratch = .allocate(capacity: Self.commandBatch)
    }

    deinit {
        generator.deinitialize(count: 1)
        generator.deallocate()
        commandScratch.deallocate()
        moreCaptures.deinitialize(count: channels - 1)
        moreCaptures.deallocate()
    }

    /// Lends the capture ring of `channel` (0…channels−1).
    public func withCapture<R>(_ channel: Int, _ body: (borrowing InputCapture) throws -> R) rethrows -> R {
        precondition(channel >= 0 && channel < channels, "no channel \(channel)")
        return channel == 0 ? try body(capture) : try body(moreCaptures[channel - 1])
    }

    // MARK: - Controls (any thread but the audio thread)

    /// Queues a command for the next period. False when the queue is full
    /// (the audio thread has not run for 256 commands); nothing changes then.
    /// Not public: commands come through `Node.apply` or the supervisor's
    /// `controller` (`LiveControls`), where the control language's rules are checked.
    @discardableResult
    func send(_ command: GeneratorCommand) -> Bool {
        producer.withLock { _ in
            // The ring copies whole strides; a lone value's storage is only
            // `size` bytes (an enum's size is below its stride), so stage it
            // in a slot of one full stride (AddressSanitizer caught the overread).
            withUnsafeTemporaryAllocation(of: GeneratorCommand.self, capacity: 1) { slot in
                slot.initializeElement(at: 0, to: command)
                return commands.write(UnsafeRawPointer(slot.baseAddress!), count: 1)
            }
        }
    }

    // MARK: - Audio thread

    /// One JACK period of a node with `channels` ports each way: channel 0 as
    /// in `render(input:output:…)`, the tone copied to the other outputs, and
    /// every other input into its own ring. Audio thread only. Always
    /// inlined, as `render(input:…)` (see there).
    @inline(__always) @_noLocks
    public func render(inputs: UnsafePointer<UnsafePointer<Float>?>, outputs: UnsafePointer<UnsafeMutablePointer<Float>?>,
                       channels portChannels: Int, frames: Int,
                       midi: UnsafePointer<MIDIEvent>?, midiCount: Int) {
        guard portChannels >= 1, let input = inputs[0], let output = outputs[0] else { return }
        render(input: input, output: output, frames: frames, midi: midi, midiCount: midiCount)
        let count = min(portChannels, channels)
        guard count >= 2 else { return }
        for channel in 1..<count {
            if let other = outputs[channel] {
                UnsafeMutableRawPointer(other).copyMemory(from: output, byteCount: frames * MemoryLayout<Float>.stride)
            }
            if let otherInput = inputs[channel] { (moreCaptures + (channel - 1)).pointee.capture(otherInput, count: frames) }
        }
    }

    /// One JACK period: the period's controls and MIDI events applied at
    /// their frames, the generator and any queued audio into `output`, `input`
    /// into the capture ring. Audio thread only.
    ///
    /// Always inlined into its callers, the bridge's entry point among them:
    /// with the generator, the rings and the capture inlined here too, a
    /// period's Swift code is one function on one or two pages (each page a
    /// period touches costs a TLB miss after the graph's other clients ran).
    @inline(__always) @_noLocks
    public func render(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int,
                       midi: UnsafePointer<MIDIEvent>? = nil, midiCount: Int = 0) {
        while true {
            let count = commands.readRaw(into: commandScratch, maxCount: Self.commandBatch)
            guard count > 0 else { break }   // most periods: no locked add for nothing
            for index in 0..<count { generator.pointee.apply(commandScratch[index]) }
            appliedCommands.wrappingAdd(count, ordering: .relaxed)
            if count < Self.commandBatch { break }
        }
        // The generator up to each MIDI event's frame, the event, and on to the
        // period's end: one call site, so the inlined voice is there once.
        let events = midi != nil ? midiCount : 0
        var done = 0
        var next = 0
        while true {
            // safe: `events` is 0 without `midi`, so `midi` is there whenever `next < events`.
            let event = next < events ? midi.unsafelyUnwrapped[next] : nil
            // JACK delivers events in time order; clamp against a misbehaving sender.
            let at = event.map { min(frames, max(done, Int($0.time))) } ?? frames
            if at > done {
                generator.pointee.render(into: output + done, frames: at - done)
                done = at
            }
            guard let event else { break }
            generator.pointee.applyMIDI(status: event.data.0, data1: event.data.1, data2: event.data.2)
            next += 1
        }
        if events > 0 { midiMessages.wrappingAdd(events, ordering: .relaxed) }
        player.mix(into: output, frames: frames)
        capture.capture(input, count: frames)
        renderedFrames.wrappingAdd(frames, ordering: .relaxed)
    }
}
