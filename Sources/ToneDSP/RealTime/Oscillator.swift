/// A sine oscillator with a 64-bit fixed-point phase and ramped parameters.
///
/// The phase is an integer where 2^64 is one cycle, so it wraps for free and
/// `n` samples at increment `d` land exactly on `n·d mod 2^64`: there is no
/// accumulated drift however long it runs (a `Double` phase keeps 53 bits;
/// this keeps 64, and adds without rounding). Frequency and level changes are
/// ramped linearly over `rampFrames` so a change while playing never clicks.
///
/// Audio thread only once the node is running.
public struct Oscillator: Sendable {
    /// Current phase, 2^64 = one cycle.
    public private(set) var phase: UInt64 = 0
    /// Current per-sample phase increment.
    public private(set) var increment: UInt64 = 0
    /// Current linear peak amplitude.
    public private(set) var amplitude: Double = 0

    private var targetIncrement: UInt64 = 0
    private var incrementStep: Int64 = 0
    private var incrementRampLeft: Int = 0
    private var targetAmplitude: Double = 0
    private var amplitudeStep: Double = 0
    private var amplitudeRampLeft: Int = 0

    /// Length of every parameter ramp, in frames (values below 1 act as 1).
    public var rampFrames: Int

    /// No ramp in progress.
    public var isSteady: Bool { @_noLocks get { incrementRampLeft == 0 && amplitudeRampLeft == 0 } }

    public init(rampFrames: Int = 480) {
        self.rampFrames = max(1, rampFrames)
    }

    /// The phase increment for `frequencyHz` at `sampleRateHz`, rounded to
    /// the nearest step of 2^-64 cycle (0 unless 0 < f < Nyquist).
    @_noLocks
    public static func increment(frequencyHz: Double, sampleRateHz: Double) -> UInt64 {
        let cyclesPerSample = frequencyHz / sampleRateHz
        guard cyclesPerSample.isFinite, cyclesPerSample > 0, cyclesPerSample < 0.5 else { return 0 }
        let steps = cyclesPerSample * 0x1p64
        // Round half away from zero, as `rounded()` does (which @_noLocks
        // rejects); from 2^52 up a Double has no fraction left to round.
        return steps < 0x1p52 ? UInt64(steps + 0.5) : UInt64(steps)
    }

    /// The frequency an increment plays at `sampleRateHz`.
    public static func frequencyHz(increment: UInt64, sampleRateHz: Double) -> Double {
        Double(increment) * 0x1p-64 * sampleRateHz
    }

    /// Jumps to a frequency and level with no ramp (before playing).
    @_noLocks
    public mutating func reset(increment: UInt64, amplitude: Double, phase: UInt64 = 0) {
        self.phase = phase
        self.increment = increment
        self.targetIncrement = increment
        self.incrementRampLeft = 0
        self.amplitude = amplitude
        self.targetAmplitude = amplitude
        self.amplitudeRampLeft = 0
    }

    /// Starts a ramp towards a new increment and amplitude; a target equal to
    /// the current one leaves that parameter's ramp alone.
    @_noLocks
    public mutating func glide(toIncrement newIncrement: UInt64, amplitude newAmplitude: Double) {
        // `rampFrames` is a public var: a 0 set after init must not divide by zero here.
        let frames = max(1, rampFrames)
        if newIncrement != targetIncrement {
            targetIncrement = newIncrement
            // safe: both increments are below 2^63 (frequency below Nyquist).
            let distance = Int64(bitPattern: newIncrement &- increment)
            incrementStep = distance / Int64(frames)
            incrementRampLeft = frames
        }
        if newAmplitude != targetAmplitude {
            targetAmplitude = newAmplitude
            amplitudeStep = (newAmplitude - amplitude) / Double(frames)
            amplitudeRampLeft = frames
        }
    }

    /// Renders `frames` samples into `output` and advances the phase.
    @_noLocks
    public mutating func render(into output: UnsafeMutablePointer<Float>, frames: Int) {
        var index = 0
        // Ramping part: one parameter step per sample.
        while index < frames && (incrementRampLeft > 0 || amplitudeRampLeft > 0) {
            if incrementRampLeft > 0 {
                incrementRampLeft -= 1
                increment = incrementRampLeft == 0
                    ? targetIncrement
                    : UInt64(bitPattern: Int64(bitPattern: increment) &+ incrementStep)
            }
            if amplitudeRampLeft > 0 {
                amplitudeRampLeft -= 1
                amplitude = amplitudeRampLeft == 0 ? targetAmplitude : amplitude + amplitudeStep
            }
            output[index] = Float(amplitude * sineOfPhase(phase))
            phase &+= increment
            index += 1
        }
        // Steady part.
        if amplitude == 0 {
            // Silent (muted): zeros and the phase moved on as the loop would, without the loop.
            (output + index).update(repeating: 0, count: frames - index)
            phase &+= increment &* UInt64(frames - index)
            return
        }
        renderSineRun(into: output + index, count: frames - index, phase: phase, step: increment, gain: amplitude)
        phase &+= increment &* UInt64(frames - index)
    }
}
