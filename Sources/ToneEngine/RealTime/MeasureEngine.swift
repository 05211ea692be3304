import Synchronization
import ToneCore

/// The real-time half of `tonenode measure`: plays a stimulus rendered in
/// advance and records `in` from the same frame on.
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
    private let stimulus: UnsafeMutablePointer<Float>
    public let stimulusFrames: Int
    private let recordingBuffer: UnsafeMutablePointer<Float>
    public let recordingFrames: Int
    private let armed = Atomic<Bool>(false)
    private let recordedFrames = Atomic<Int>(0)

    public init(stimulus: [Float], recordingFrames: Int) {
        stimulusFrames = stimulus.count
        let played = UnsafeMutablePointer<Float>.allocate(capacity: max(1, stimulus.count))
        played.initialize(repeating: 0, count: max(1, stimulus.count))
        for (index, value) in stimulus.enumerated() { played[index] = value }
        self.stimulus = played
        self.recordingFrames = recordingFrames
        recordingBuffer = .allocate(capacity: max(1, recordingFrames))
        recordingBuffer.initialize(repeating: 0, count: max(1, recordingFrames))
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

    /// The recording so far (do not escape the pointer).
    public func withRecording<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: recordingBuffer, count: framesRecorded))
    }

    // MARK: - Audio thread

    /// One JACK period. Audio thread only.
    @_noLocks
    public func render(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        guard armed.load(ordering: .acquiring) else {
            for index in 0..<frames { output[index] = 0 }
            return
        }
        let position = recordedFrames.load(ordering: .relaxed)
        // Input first: in a loop from our `out` straight to our `in` JACK
        // hands both ports the same buffer, and writing the output would
        // overwrite what came in.
        let recordCount = min(frames, recordingFrames - position)
        for index in 0..<max(0, recordCount) { recordingBuffer[position + index] = input[index] }
        for index in 0..<frames {
            let frame = position + index
            output[index] = frame < stimulusFrames ? stimulus[frame] : 0
        }
        if recordCount > 0 { recordedFrames.store(position + recordCount, ordering: .releasing) }
    }
}
