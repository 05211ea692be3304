/// A sine oscillator with a 64-bit fixed-point phase and ramped parameters.
///
/// The phase is an integer where 2^64 is one cycle, so it wraps for free and
/// `n` samples at increment `d` land exactly on `n·d mod 2^64`: there is no
/// accumulated drift however long it runs (a `Double` phase keeps 53 bits;
/// this keeps 64, and adds without rounding). Frequency and level changes are
/// ramped linearly over `rampFrames` so a change while playing never clicks.
///
/// Audio thread only once the node is running.
///
/// `render` is `@inlinable` (and its state `@usableFromInline`): the engine's
/// period inlines it, so the JACK thread's code for a period sits together on
/// few pages (each page it touches costs a TLB miss after the other clients
/// of the graph have run; see docs/engineering/reliability.md).
public struct Oscillator: Sendable {
    /// Current phase, 2^64 = one cycle.
    public var phase: UInt64 { @inlinable @_noLocks get { _phase } }
    /// Current per-sample phase increment.
    public var increment: UInt64 { @inlinable @_noLocks get { _increment } }
    /// Current linear peak amplitude.
    public var amplitude: Double { @inlinable @_noLocks get { _amplitude } }

    @usableFromInline var _phase: UInt64 = 0
    @usableFromInline var _increment: UInt64 = 0
    @usableFromInline var _amplitude: Double = 0
    @usableFromInline var targetIncrement: UInt64 = 0
    @usableFromInline var incrementStep: Int64 = 0
    @usableFromInline var incrementRampLeft: Int = 0
    @usableFromInline var targetAmplitude: Double = 0
    @usableFromInline var amplitudeStep: Double = 0
    @usableFromInline var amplitudeRampLeft: Int = 0

    /// Length of every parameter ramp, in frames (values below 1 act as 1).
    public var rampFrames: Int

    /// No ramp in progress.
    public var isSteady: Bool { @inlinable @_noLocks get { incrementRampLeft == 0 && amplitudeRampLeft == 0 } }

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
        _phase = phase
        _increment = increment
        targetIncrement = increment
        incrementRampLeft = 0
        _amplitude = amplitude
        targetAmplitude = amplitude
        amplitudeRampLeft = 0
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
            let distance = Int64(bitPattern: newIncrement &- _increment)
            incrementStep = distance / Int64(frames)
            incrementRampLeft = frames
        }
        if newAmplitude != targetAmplitude {
            targetAmplitude = newAmplitude
            amplitudeStep = (newAmplitude - _amplitude) / Double(frames)
            amplitudeRampLeft = frames
        }
    }

    /// Renders `frames` samples into `output` and advances the phase.
    @inlinable @inline(__always) @_noLocks
    public mutating func render(into output: UnsafeMutablePointer<Float>, frames: Int) {
        // A ramp runs for `rampFrames` after a change: out of line, off the steady period's pages.
        let index = incrementRampLeft > 0 || amplitudeRampLeft > 0 ? renderRamp(into: output, frames: frames) : 0
        // Steady part.
        if _amplitude == 0 {
            // Silent (muted): zeros and the phase moved on as the loop would, without the loop.
            (output + index).update(repeating: 0, count: frames - index)
            _phase &+= _increment &* UInt64(frames - index)
            return
        }
        renderSineRun(into: output + index, count: frames - index, phase: _phase, step: _increment, gain: _amplitude)
        _phase &+= _increment &* UInt64(frames - index)
    }

    /// The ramping part of `render`: one parameter step per sample until the
    /// ramps end or `frames` are done. Returns the frames rendered.
    @usableFromInline @inline(never) @_noLocks
    mutating func renderRamp(into output: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        var index = 0
        while index < frames && (incrementRampLeft > 0 || amplitudeRampLeft > 0) {
            if incrementRampLeft > 0 {
                incrementRampLeft -= 1
                _increment = incrementRampLeft == 0
                    ? targetIncrement
                    : UInt64(bitPattern: Int64(bitPattern: _increment) &+ incrementStep)
            }
            if amplitudeRampLeft > 0 {
                amplitudeRampLeft -= 1
                _amplitude = amplitudeRampLeft == 0 ? targetAmplitude : _amplitude + amplitudeStep
            }
            output[index] = Float(_amplitude * sineOfPhase(_phase))
            _phase &+= _increment
            index += 1
        }
        return index
    }
}
