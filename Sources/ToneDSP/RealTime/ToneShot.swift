#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot sound with a raised-cosine envelope: a beep (one frequency) or
/// a logarithmic sweep.
///
/// The envelope rises as `sin²(π/2 · n/R)` over the first `R` frames and falls
/// as its mirror image over the last `R` (a raised cosine, Hann-shaped edges),
/// so a beep starts and ends without a step: its spectrum falls off with the
/// cube of the distance from the carrier instead of the `1/f` splatter of a
/// gated sine. The generator crossfades with it: out = (1−e)·tone + e·shot.
///
/// A sweep's frequency follows `f(t) = f₀·(f₁/f₀)^(t/T)` exactly (in steps of
/// one sample: the increment is multiplied by `(f₁/f₀)^(1/N)` per sample, so
/// after `n` samples it is `f₀·r^n` to within `n` roundings of 2⁻⁵³); the phase
/// is the running sum of the increments, so it is continuous.
///
/// Audio thread only once handed to the generator.
public struct ToneShot: BitwiseCopyable, Sendable, Equatable {
    /// Frames since the start; the shot is over at `totalFrames`.
    public var frame: Int { @inlinable @_noLocks get { _frame } }
    @usableFromInline var _frame: Int = 0
    public let totalFrames: Int
    /// Length of the attack and of the release, in frames.
    public let edgeFrames: Int
    /// Peak amplitude during the hold.
    public let amplitude: Double
    /// Phase, 2^64 = one cycle.
    public private(set) var phase: UInt64 = 0
    /// Cycles per sample now (a fraction of the sample rate, below 0.5).
    public private(set) var cyclesPerSample: Double
    /// What `cyclesPerSample` is multiplied by each sample (1 for a beep).
    public let ratioPerSample: Double
    /// Envelope phase step: a quarter cycle (2^62) over `edgeFrames`.
    private let edgeStep: UInt64

    /// The longest beep or sweep, in seconds.
    public static let maximumSeconds = 3600.0
    /// Attack and release of beeps and sweeps (shorter for very short shots: half each).
    public static let edgeSeconds = 0.01

    /// An idle shot (nothing to play).
    public static var idle: ToneShot { @_noLocks get { ToneShot(totalFrames: 0, edgeFrames: 1, amplitude: 0, cyclesPerSample: 0, ratioPerSample: 1) } }

    @_noLocks
    private init(totalFrames: Int, edgeFrames: Int, amplitude: Double, cyclesPerSample: Double, ratioPerSample: Double) {
        self.totalFrames = totalFrames
        self.edgeFrames = max(1, edgeFrames)
        self.amplitude = amplitude
        self.cyclesPerSample = cyclesPerSample
        self.ratioPerSample = ratioPerSample
        edgeStep = (1 << 62) / UInt64(self.edgeFrames)
    }

    /// A beep at `frequencyHz` lasting `seconds` (edges included); nil when
    /// the frequency is not in `(0, Nyquist)` or the duration not in
    /// `(0, maximumSeconds]`. Not for the audio thread (it rounds and divides freely).
    public static func beep(frequencyHz: Double, seconds: Double, amplitude: Double,
                            sampleRateHz: Double) -> ToneShot? {
        sweep(startHz: frequencyHz, endHz: frequencyHz, seconds: seconds, amplitude: amplitude,
              sampleRateHz: sampleRateHz)
    }

    /// A logarithmic sweep from `startHz` to `endHz` over `seconds`; nil when
    /// a frequency is not in `(0, Nyquist)` or the duration not in `(0, maximumSeconds]`.
    public static func sweep(startHz: Double, endHz: Double, seconds: Double, amplitude: Double,
                             sampleRateHz: Double) -> ToneShot? {
        let nyquist = sampleRateHz / 2
        guard startHz.isFinite, endHz.isFinite, startHz > 0, endHz > 0, startHz < nyquist, endHz < nyquist,
              seconds.isFinite, seconds > 0, seconds <= maximumSeconds,
              amplitude.isFinite, amplitude >= 0 else { return nil }
        let total = max(1, Int((seconds * sampleRateHz).rounded()))
        let edge = max(1, min(Int((edgeSeconds * sampleRateHz).rounded()), total / 2))
        let ratio = startHz == endHz ? 1 : pow(endHz / startHz, 1 / Double(total))
        return ToneShot(totalFrames: total, edgeFrames: edge, amplitude: amplitude,
                        cyclesPerSample: startHz / sampleRateHz, ratioPerSample: ratio)
    }

    /// Whether there is anything left to play.
    public var isActive: Bool { @inlinable @_noLocks get { _frame < totalFrames } }

    /// The envelope at frame `n` (0…1).
    @_noLocks
    public func envelope(at n: Int) -> Double {
        let fromEdge = min(n, totalFrames - n)
        guard fromEdge < edgeFrames else { return 1 }
        guard fromEdge > 0 else { return 0 }
        let s = sineOfPhase(UInt64(fromEdge) &* edgeStep)
        return s * s
    }

    /// Ends the shot early without a step: jumps to the point of the release
    /// with the envelope's present value (from the hold: the release's start).
    @_noLocks
    public mutating func release() {
        guard isActive else { return }
        let fromEnd = totalFrames - frame
        if fromEnd <= edgeFrames { return }      // already releasing
        _frame = totalFrames - min(_frame, edgeFrames)
    }

    /// Crossfades `frames` samples of `mix` (the tone) with the shot, in
    /// place, stopping early when the shot ends. Returns the frames used.
    @_noLocks
    public mutating func render(over mix: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let count = min(frames, totalFrames - frame)
        guard count > 0 else { return 0 }
        var cycles = cyclesPerSample
        var p = phase
        for index in 0..<count {
            let e = envelope(at: frame + index)
            let value = amplitude * sineOfPhase(p)
            mix[index] = Float((1 - e) * Double(mix[index]) + e * value)
            // safe: cycles moves monotonically between two ends inside (0, 0.5);
            // the clamp only guards the last roundings of a sweep ending next to Nyquist.
            p &+= UInt64(min(cycles, 0.5 - 0x1p-40) * 0x1p64)
            cycles *= ratioPerSample
        }
        phase = p
        cyclesPerSample = cycles
        _frame += count
        return count
    }
}
