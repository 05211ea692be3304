import Synchronization
import ToneDSP

/// The real-time half of `tonenode link`: plays the link probe on `out`
/// (round trip; a listener plays silence) and hands `in` to the worker.
///
/// The probe period is copied into a buffer allocated in `init`; the play
/// position lives behind a pointer the audio thread alone touches. Output
/// frame n and input frame n share a period, so the stream frame the worker
/// counts on `in` is the frame count the probe was played on: the delay it
/// reads is the round trip, in the convention `jack_iodelay` uses.
///
/// Ordering: the capture ring pairs its own release and acquire (see
/// `SPSCRing`); `renderedFrames` is a statistic, written and read relaxed.
public final class LinkEngine: @unchecked Sendable {
    // @unchecked Sendable: `probe` is read-only after init, `position` is
    // used only by the audio thread after activation; `capture` is an SPSC
    // ring with its own ordering.
    private let probe: UnsafeMutablePointer<Float>
    private let periodFrames: Int
    private let position: UnsafeMutablePointer<Int>
    private let plays: Bool
    /// Input hand-over to the worker.
    public let capture: InputCapture
    /// Frames rendered since activation (audio thread writes).
    public let renderedFrames = Atomic<Int>(0)

    /// - Parameters:
    ///   - plays: play the probe (false: a listener, `out` silent).
    ///   - captureSeconds: how much input the ring holds before it overflows.
    public init(probe: LinkProbe, plays: Bool, captureSeconds: Double = 4) {
        periodFrames = probe.periodFrames
        self.probe = .allocate(capacity: probe.periodFrames)
        for (index, value) in probe.samples.enumerated() { self.probe[index] = value }
        position = .allocate(capacity: 1)
        position.initialize(to: 0)
        self.plays = plays
        capture = InputCapture(capacityFrames: Int(captureSeconds * probe.sampleRateHz))
    }

    deinit {
        probe.deallocate()
        position.deallocate()
    }

    /// One JACK period. Audio thread only.
    @_noLocks
    public func render(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        // Input first: a loop from our `out` to our `in` shares one buffer.
        capture.capture(input, count: frames)
        var at = position.pointee
        for index in 0..<frames {
            output[index] = plays ? probe[at] : 0
            at += 1
            if at == periodFrames { at = 0 }
        }
        position.pointee = at
        renderedFrames.wrappingAdd(frames, ordering: .relaxed)
    }
}
