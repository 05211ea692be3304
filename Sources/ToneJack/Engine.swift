import Synchronization
import ToneDSP

/// The real-time half of the node: what runs inside the JACK process callback.
///
/// Its state is inline and pre-allocated: the oscillator lives behind a pointer
/// allocated in `init`, the controls are atomics, the input hand-over is an
/// `InputCapture` ring. No class-typed property is touched by `render`.
///
/// Controls: the main thread `store(.releasing)`s a target increment and
/// amplitude; `render` `load(.acquiring)`s them once per period and ramps.
public final class Engine: @unchecked Sendable {
    // @unchecked Sendable: `oscillator` is written only by the audio thread
    // after activation (and by `init` before it); every other field is an
    // atomic or a lock-free ring with its own ordering rules.
    private let oscillator: UnsafeMutablePointer<Oscillator>
    /// Input hand-over to the worker.
    public let capture: InputCapture
    /// Pre-rendered audio (modem transmissions, test signals) added to `out`.
    public let player: SamplePlayer
    private let targetIncrement = Atomic<UInt64>(0)
    private let targetAmplitudeBits = Atomic<UInt64>(0)
    /// Frames rendered since activation (audio thread writes).
    public let renderedFrames = Atomic<Int>(0)
    public let sampleRateHz: Double

    /// - Parameters:
    ///   - rampSeconds: length of frequency/level ramps (click-free changes).
    ///   - captureSeconds: how much input the ring holds before it overflows.
    ///   - playbackSeconds: how much pre-rendered audio can be queued ahead.
    public init(sampleRateHz: Double, frequencyHz: Double, amplitude: Double,
                rampSeconds: Double = 0.01, captureSeconds: Double = 4, playbackSeconds: Double = 4) {
        self.sampleRateHz = sampleRateHz
        oscillator = .allocate(capacity: 1)
        var osc = Oscillator(rampFrames: max(1, Int(rampSeconds * sampleRateHz)))
        let increment = Oscillator.increment(frequencyHz: frequencyHz, sampleRateHz: sampleRateHz)
        osc.reset(increment: increment, amplitude: amplitude)
        oscillator.initialize(to: osc)
        capture = InputCapture(capacityFrames: Int(captureSeconds * sampleRateHz))
        player = SamplePlayer(capacityFrames: Int(playbackSeconds * sampleRateHz))
        targetIncrement.store(increment, ordering: .releasing)
        targetAmplitudeBits.store(amplitude.bitPattern, ordering: .releasing)
    }

    deinit {
        oscillator.deinitialize(count: 1)
        oscillator.deallocate()
    }

    // MARK: - Controls (any thread but the audio thread)

    /// Glides to a new frequency (validated by the caller: 0 < f < Nyquist).
    public func setFrequency(_ frequencyHz: Double) {
        targetIncrement.store(Oscillator.increment(frequencyHz: frequencyHz, sampleRateHz: sampleRateHz),
                              ordering: .releasing)
    }

    /// Ramps to a new peak amplitude (0 mutes). Non-finite or negative values are ignored.
    public func setAmplitude(_ amplitude: Double) {
        guard amplitude.isFinite, amplitude >= 0 else { return }
        targetAmplitudeBits.store(amplitude.bitPattern, ordering: .releasing)
    }

    // MARK: - Audio thread

    /// One JACK period: the tone and any queued audio into `output`, `input`
    /// into the capture ring.
    /// Audio thread only.
    @_noLocks
    public func render(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        let increment = targetIncrement.load(ordering: .acquiring)
        let amplitude = Double(bitPattern: targetAmplitudeBits.load(ordering: .acquiring))
        oscillator.pointee.glide(toIncrement: increment, amplitude: amplitude)
        oscillator.pointee.render(into: output, frames: frames)
        player.mix(into: output, frames: frames)
        capture.capture(input, count: frames)
        renderedFrames.wrappingAdd(frames, ordering: .relaxed)
    }
}
