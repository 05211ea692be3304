import Synchronization
import ToneCore

/// The real-time half of `tonenode measure`: plays a stimulus rendered in
/// advance on each channel's output and records each channel's input from
/// the same frame on (one channel: `in`/`out`; N: `in_1…`/`out_1…`).
///
/// Both buffers are allocated in `init`, before `jack_activate`. `render`
/// does nothing but copy: input into `recording`, stimulus into the output.
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

    public convenience init(stimulus: [Float], recordingFrames: Int) {
        self.init(stimuli: [stimulus], recordingFrames: recordingFrames)
    }

    /// - Parameter stimuli: one per channel (at least one), each as long as the first (shorter ones end in silence).
    public init(stimuli: [[Float]], recordingFrames: Int) {
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
    /// engine's; missing buffers are skipped). Audio thread only.
    @_noLocks
    public func render(inputs: UnsafePointer<UnsafePointer<Float>?>, outputs: UnsafePointer<UnsafeMutablePointer<Float>?>,
                       channels count: Int, frames: Int) {
        let used = min(count, channels)
        guard armed.load(ordering: .acquiring) else {
            for channel in 0..<used { if let output = outputs[channel] { for index in 0..<frames { output[index] = 0 } } }
            return
        }
        let position = recordedFrames.load(ordering: .relaxed)
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
