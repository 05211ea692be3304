/// Everything `out` plays: the steady tone (glides, MIDI notes and pitch
/// bend) and one-shot beeps and sweeps on top of it.
///
/// Controls and MIDI events are applied between samples, so an event at
/// frame `k` of a period takes effect exactly at `k` (the caller renders up
/// to `k`, applies, and goes on). Which voice plays follows the last change:
/// a note-on plays its note (velocity scales `--level`); `freq` and
/// `mute on` end a note; a note-off of the sounding note releases it and
/// leaves the node silent until the next note or `mute off`.
///
/// Audio thread only once the node is running (every mutating method is `@_noLocks`).
public struct ToneGenerator: Sendable {
    public let sampleRateHz: Double
    /// The steady voice.
    public var voice: Oscillator {
        @inlinable @_noLocks get { _voice }
        @inlinable @_noLocks set { _voice = newValue }
    }
    @usableFromInline var _voice: Oscillator
    /// Phase increment of the steady tone (`freq`).
    public private(set) var toneIncrement: UInt64
    /// Peak amplitude of `--level`, before mute and velocity.
    public private(set) var levelAmplitude: Double
    public private(set) var muted: Bool
    /// Frequency of A4 for MIDI notes.
    public let a4Hz: Double
    /// Semitones of a full pitch-bend swing (either way).
    public let bendRangeSemitones: Double
    /// A full pitch-bend swing moves this many semitones either way unless told otherwise (the MIDI custom).
    public static let defaultBendRangeSemitones = 2.0
    /// The node's tone unless told otherwise (`--freq`, `--level`; the LV2 generator's port defaults).
    public static let defaultFrequencyHz = 1000.0
    public static let defaultLevelDBFS = -18.0
    /// How long a frequency or level change ramps unless told otherwise (click-free; the LV2 generator's `glide`).
    public static let defaultRampSeconds = 0.01
    /// The ramp lengths a node or the LV2 generator takes (`--glide`, `glide`).
    public static let rampSecondsRange: ClosedRange<Double> = 0...10
    /// The sounding MIDI note, or -1.
    public private(set) var note: Int = -1
    public private(set) var velocity: Int = 0
    /// The present pitch bend in semitones (kept between notes).
    public private(set) var bendSemitones: Double = 0
    /// The beep or sweep playing now, and the one waiting for it to finish.
    public var shot: ToneShot { @inlinable @_noLocks get { _shot } }
    public var nextShot: ToneShot { @inlinable @_noLocks get { _nextShot } }
    @usableFromInline var _shot: ToneShot = .idle
    @usableFromInline var _nextShot: ToneShot = .idle

    public init(sampleRateHz: Double, frequencyHz: Double, levelAmplitude: Double, muted: Bool,
                rampFrames: Int, a4Hz: Double = EqualTemperament.standardA4Hz,
                bendRangeSemitones: Double = defaultBendRangeSemitones) {
        self.sampleRateHz = sampleRateHz
        self.a4Hz = a4Hz
        self.bendRangeSemitones = bendRangeSemitones
        toneIncrement = Oscillator.increment(frequencyHz: frequencyHz, sampleRateHz: sampleRateHz)
        self.levelAmplitude = levelAmplitude
        self.muted = muted
        _voice = Oscillator(rampFrames: rampFrames)
        _voice.reset(increment: toneIncrement, amplitude: muted ? 0 : levelAmplitude)
    }

    // MARK: - Controls

    /// Applies a control command. Audio thread.
    @_noLocks
    public mutating func apply(_ command: GeneratorCommand) {
        switch command {
        case .tone(let increment):
            toneIncrement = increment
            note = -1
        case .level(let amplitude):
            guard amplitude.isFinite, amplitude >= 0 else { return }
            levelAmplitude = amplitude
        case .mute(let on):
            muted = on
            if on {
                note = -1
                _shot.release()
                _nextShot = .idle
            }
        case .ramp(let frames):
            // Applies to the next change (and to one under way from its next step).
            _voice.rampFrames = max(1, frames)
            return
        case .shot(let newShot):
            if _shot.isActive {
                // Let the present one fade out first: starting the new one
                // under it would cut its sine off mid-cycle.
                _shot.release()
                _nextShot = newShot
            } else {
                _shot = newShot
            }
        }
        retarget()
    }

    // MARK: - MIDI

    /// Applies one MIDI message (any channel). Running status is not used by
    /// JACK MIDI, so `status` is always present. Audio thread.
    @_noLocks
    public mutating func applyMIDI(status: UInt8, data1: UInt8, data2: UInt8) {
        switch status & 0xF0 {
        case 0x90 where data2 > 0:
            note = Int(data1 & 0x7F)
            velocity = Int(data2 & 0x7F)
            muted = false
        case 0x80, 0x90:
            guard Int(data1 & 0x7F) == note else { return }
            note = -1
            muted = true
        case 0xE0:
            let value = Int(data1 & 0x7F) | Int(data2 & 0x7F) << 7      // 0…16383, centre 8192
            bendSemitones = Double(value - 8192) / 8192 * bendRangeSemitones
        case 0xB0 where data1 == 120 || data1 == 123:                    // all sound off, all notes off
            if note >= 0 { muted = true }
            note = -1
        default:
            return
        }
        retarget()
    }

    /// The frequency a MIDI note plays with the present bend.
    @_noLocks
    public func frequencyHz(note: Int) -> Double {
        a4Hz * exponentOfTwo((Double(note) + bendSemitones - 69) / 12)
    }

    /// Points the steady voice at what it should play now. From silence the
    /// pitch jumps (nothing to glide from) and only the level ramps.
    @_noLocks
    private mutating func retarget() {
        let increment: UInt64
        let amplitude: Double
        if note >= 0 {
            increment = Oscillator.increment(frequencyHz: frequencyHz(note: note), sampleRateHz: sampleRateHz)
            amplitude = levelAmplitude * Double(velocity) / 127
        } else {
            increment = toneIncrement
            amplitude = muted ? 0 : levelAmplitude
        }
        if _voice.amplitude == 0 && _voice.isSteady {
            _voice.reset(increment: increment, amplitude: 0, phase: _voice.phase)
        }
        _voice.glide(toIncrement: increment, amplitude: amplitude)
    }

    // MARK: - Rendering

    /// Renders `frames` samples into `output`. Audio thread.
    ///
    /// `@inlinable`, as `Oscillator.render`: the engine's period inlines the
    /// steady voice; a beep or sweep, when one plays, is a call.
    @inlinable @inline(__always) @_noLocks
    public mutating func render(into output: UnsafeMutablePointer<Float>, frames: Int) {
        _voice.render(into: output, frames: frames)
        if _shot.isActive { renderShots(over: output, frames: frames) }
    }

    /// The beeps and sweeps over the rendered tone, the next one starting where the present one ends.
    @usableFromInline @inline(never) @_noLocks
    mutating func renderShots(over output: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames && _shot.isActive {
            done += _shot.render(over: output + done, frames: frames - done)
            if !_shot.isActive {
                _shot = _nextShot
                _nextShot = .idle
            }
        }
    }
}
