import Synchronization
import ToneCore
import ToneDSP
import ToneJack

/// The real-time half of `tonenode measure`: plays a stimulus rendered in
/// advance on each channel's output and records each channel's input from
/// the same frame on (one channel: `in`/`out`; N: `in_1…`/`out_1…`).
///
/// Both buffers, and the MIDI messages to send (`--what midi`), are allocated
/// in `init`, before `jack_activate`. `render` does nothing but copy: input
/// into `recording`, stimulus into the output, and the messages due in the
/// period, at their frames, into the bridge's outgoing MIDI events.
/// It starts at the first period after `arm()`, so the connections are in
/// place before the first frame goes out, and playback and recording share
/// frame 0: the recording's frame n is what `in` saw n frames after the
/// stimulus's frame 0 left `out`.
///
/// Ordering: the audio thread's `recordedFrames.store(.releasing)` publishes
/// the frames it wrote, and pairs with `recordedFrames.load(.acquiring)` in
/// `framesRecorded`; `arm`'s `.releasing` store pairs with `render`'s `.acquiring` load.
public final class MeasureEngine: @unchecked Sendable {
    // @unchecked Sendable: `stimulus` is read-only after init; `recordingBuffer`
    // is written only by the audio thread, below `recordedFrames`, and read by
    // others only below the published count.
    /// Channel c's stimulus at `c·stimulusFrames`, its recording at `c·recordingFrames`.
    private let stimulus: UnsafeMutablePointer<Float>
    public let stimulusFrames: Int
    private let recordingBuffer: UnsafeMutablePointer<Float>
    public let recordingFrames: Int
    public let channels: Int
    private let armed = Atomic<Bool>(false)
    private let recordedFrames = Atomic<Int>(0)
    /// The MIDI messages to send (`--what midi`), in frame order: frame, and the message as the bridge takes it.
    private let midiFrames: UnsafeMutablePointer<Int>
    private let midiEvents: UnsafeMutablePointer<MIDIEvent>
    private let midiCount: Int
    /// Room in the bridge's outgoing events per period.
    private let midiOutCapacity: Int
    /// The next message to send. Audio thread only (behind a pointer: no class-property access on the RT path).
    private let midiCursor: UnsafeMutablePointer<Int>

    public convenience init(stimulus: [Float], recordingFrames: Int) {
        self.init(stimuli: [stimulus], recordingFrames: recordingFrames)
    }

    /// - Parameters:
    ///   - stimuli: one per channel (at least one), each as long as the first (shorter ones end in silence).
    ///   - midiMessages: sent on the MIDI output at their frames (frame 0: the stimulus's first frame).
    ///   - midiOutCapacity: messages the bridge takes per period.
    public init(stimuli: [[Float]], recordingFrames: Int, midiMessages: [TimedMIDIMessage] = [],
                midiOutCapacity: Int = ProcessBridge.maximumMIDIEvents) {
        let messages = midiMessages.sorted { $0.frame < $1.frame }
        midiCount = messages.count
        midiFrames = .allocate(capacity: max(1, messages.count))
        midiEvents = .allocate(capacity: max(1, messages.count))
        for (index, message) in messages.enumerated() {
            midiFrames[index] = message.frame
            midiEvents[index] = MIDIEvent(time: 0, size: 3, data: (message.status, message.data1, message.data2, 0))
        }
        self.midiOutCapacity = midiOutCapacity
        midiCursor = .allocate(capacity: 1)
        midiCursor.initialize(to: 0)
        channels = max(1, stimuli.count)
        stimulusFrames = stimuli.first?.count ?? 0
        let played = UnsafeMutablePointer<Float>.allocate(capacity: max(1, channels * stimulusFrames))
        played.initialize(repeating: 0, count: max(1, channels * stimulusFrames))
        for (channel, samples) in stimuli.enumerated() {
            for (index, value) in samples.prefix(stimulusFrames).enumerated() { played[channel * stimulusFrames + index] = value }
        }
        self.stimulus = played
        self.recordingFrames = recordingFrames
        recordingBuffer = .allocate(capacity: max(1, channels * recordingFrames))
        recordingBuffer.initialize(repeating: 0, count: max(1, channels * recordingFrames))
    }

    deinit {
        stimulus.deallocate()
        recordingBuffer.deallocate()
        midiFrames.deallocate()
        midiEvents.deallocate()
        midiCursor.deallocate()
    }

    /// Starts playback and recording at the next period. Main thread.
    public func arm() { armed.store(true, ordering: .releasing) }

    /// Frames recorded so far.
    public var framesRecorded: Int { recordedFrames.load(ordering: .acquiring) }
    public var isFinished: Bool { framesRecorded >= recordingFrames }

    /// Channel `channel`'s recording so far (do not escape the pointer).
    public func withRecording<R>(channel: Int = 0, _ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        precondition(channel >= 0 && channel < channels, "no channel \(channel)")
        return try body(UnsafeBufferPointer(start: recordingBuffer + channel * recordingFrames, count: framesRecorded))
    }

    // MARK: - Audio thread

    /// One JACK period of one channel. Audio thread only.
    @_noLocks
    public func render(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        guard armed.load(ordering: .acquiring) else {
            for index in 0..<frames { output[index] = 0 }
            return
        }
        let position = recordedFrames.load(ordering: .relaxed)
        let recordCount = record(channel: 0, input: input, from: position, frames: frames)
        play(channel: 0, output: output, from: position, frames: frames)
        if recordCount > 0 { recordedFrames.store(position + recordCount, ordering: .releasing) }
    }

    /// One JACK period of every channel (`channels` may be fewer than the
    /// engine's; missing buffers are skipped), and the MIDI messages due in
    /// it into `midiOut` (nil: no MIDI output). Audio thread only.
    /// - Returns: the MIDI messages written to `midiOut`.
    @_noLocks @discardableResult
    public func render(inputs: UnsafePointer<UnsafePointer<Float>?>, outputs: UnsafePointer<UnsafeMutablePointer<Float>?>,
                       channels count: Int, frames: Int, midiOut: UnsafeMutablePointer<MIDIEvent>? = nil) -> Int {
        let used = min(count, channels)
        guard armed.load(ordering: .acquiring) else {
            for channel in 0..<used { if let output = outputs[channel] { for index in 0..<frames { output[index] = 0 } } }
            return 0
        }
        let position = recordedFrames.load(ordering: .relaxed)
        var midiWritten = 0
        if let midiOut { midiWritten = sendMIDI(into: midiOut, from: position, frames: frames) }
        // Every input before any output: a loop from one of our outputs to
        // one of our inputs may share one buffer.
        var recordCount = 0
        for channel in 0..<used {
            if let input = inputs[channel] { recordCount = record(channel: channel, input: input, from: position, frames: frames) }
        }
        for channel in 0..<used {
            if let output = outputs[channel] { play(channel: channel, output: output, from: position, frames: frames) }
        }
        if recordCount > 0 { recordedFrames.store(position + recordCount, ordering: .releasing) }
        return midiWritten
    }

    /// The scheduled messages with frames in `position ..< position + frames`
    /// into `out`, each at its frame of the period; returns how many. Audio thread only.
    @_noLocks
    private func sendMIDI(into out: UnsafeMutablePointer<MIDIEvent>, from position: Int, frames: Int) -> Int {
        let count = midiCount, capacity = midiOutCapacity, due = midiFrames, events = midiEvents
        var written = 0
        var cursor = midiCursor.pointee
        while cursor < count {
            let frame = due[cursor]
            if frame >= position + frames { break }
            // A message before `position` was due while the recording stood still: it is late, not sent.
            if frame >= position, written < capacity {
                out[written] = events[cursor]
                out[written].time = UInt32(frame - position)
                written += 1
            }
            cursor += 1
        }
        midiCursor.pointee = cursor
        return written
    }

    /// Copies `input` into the channel's recording; returns the frames copied. Audio thread only.
    @_noLocks
    private func record(channel: Int, input: UnsafePointer<Float>, from position: Int, frames: Int) -> Int {
        // Input first (callers): in a loop from our `out` straight to our `in`
        // JACK hands both ports the same buffer, and writing the output would
        // overwrite what came in.
        let recordCount = min(frames, recordingFrames - position)
        let base = recordingBuffer + channel * recordingFrames + position
        for index in 0..<max(0, recordCount) { base[index] = input[index] }
        return max(0, recordCount)
    }

    /// The channel's stimulus from `position` into `output`, silence after its end. Audio thread only.
    @_noLocks
    private func play(channel: Int, output: UnsafeMutablePointer<Float>, from position: Int, frames: Int) {
        let base = stimulus + channel * stimulusFrames
        for index in 0..<frames {
            let frame = position + index
            output[index] = frame < stimulusFrames ? base[frame] : 0
        }
    }
}
