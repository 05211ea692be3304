/// A test answer with a known onset, for MIDI-to-audio latency: silence
/// before the onset, then a straight ramp to `amplitude` over `rampFrames`,
/// `holdFrames` at the top, and a straight ramp back down. Its onset is
/// exact at any fractional frame (each sample lies on the ramp), which is
/// what `MIDILatencyAnalyzer` reads.
public struct RampBurst: Sendable {
    public var amplitude: Float
    public var rampFrames: Double
    public var holdFrames: Double

    public init(amplitude: Float = 0.25, rampFrames: Double = 24, holdFrames: Double = 480) {
        self.amplitude = amplitude
        self.rampFrames = rampFrames
        self.holdFrames = holdFrames
    }

    /// Frames from the onset to the end of the ramp down.
    public var lengthFrames: Double { 2 * rampFrames + holdFrames }

    /// The value `t` frames after the onset (0 before it and after the end).
    @inline(__always)
    public func value(framesSinceOnset t: Double) -> Float {
        guard t > 0, t < lengthFrames else { return 0 }
        let rising = t / rampFrames, falling = (lengthFrames - t) / rampFrames
        return amplitude * Float(min(1, rising, falling))
    }
}
