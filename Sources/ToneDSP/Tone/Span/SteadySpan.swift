#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reading that improves while the note holds: while successive windows
/// agree with one steady tone, the frequency is fitted over the whole span
/// the tone has held (up to `maxFrames`), not over one window, so its error
/// falls as the Cramér–Rao bound for the span does, as `T^(-3/2)`.
///
/// How: the span is cut into contiguous blocks of `blockFrames`. Each block
/// gets the least-squares amplitude and phase of a sinusoid at one reference
/// frequency (the first window's), `x ≈ a·cos θ + b·sin θ` with the block's
/// mean removed (the real model: the negative-frequency image does not leak
/// in). A steady tone's block phases then lie on a line whose slope is the
/// reference's error; the amplitude-weighted straight-line fit of the
/// unwrapped phases is the long span's maximum-likelihood estimate at high
/// block SNR (its variance is `K²/(K²−1)` times the bound for `K` blocks).
/// Nothing is kept but one phase and one amplitude per block.
///
/// A span starts at the newest block of a window with a tone and grows a
/// block at a time; it reads the tone once it is longer than one window.
/// The span ends, and the reading is one window's again, at the first hop
/// that shows any of: no tone (or bad input, silence, a gap); the window's own
/// frequency more than `agreementSigmas` of its spread (its bound, or the
/// detector's wider scatter as learnt, up to `spreadRatioMax`) and more than
/// `agreementFloorCents` away from the span's; a block's amplitude more than
/// `levelStepDB` (plus its noise) off the block two before it (a step in any
/// block is whole by then); a block's phase more than `phaseStepSigmas` of
/// the blocks' scatter about the line (their noise, or wider as learnt; at
/// most `phaseStepCeilingRadians`) off the line.
///
/// Worker only.
public final class SteadySpan {
    /// The longest span a reading integrates by default, and what may be asked (0: off).
    public static let defaultMaxSeconds = 8.0
    public static let maxSecondsRange: ClosedRange<Double> = 0...60
    /// A level change larger than this ends the span.
    public static let levelStepDB = 3.0
    static let agreementSigmas = 5.0
    static let agreementFloorCents = 0.1
    /// Windows over which the spread of the windows' readings is learnt.
    static let spreadWindows = 32.0
    /// The widest spread learnt: 8× the bound (the pitch detector's windows
    /// scatter about 6× at 10 dB). Wider would let a vibrato pass for noise.
    static let spreadRatioMax = 64.0
    static let phaseStepSigmas = 5.0
    /// The tightest phase tolerance (float rounding), and the widest: a
    /// residual of half a radian is never the span's tone.
    static let phaseStepFloorRadians = 1e-6
    static let phaseStepCeilingRadians = 0.5
    /// Blocks over which the phase scatter is learnt.
    static let spreadBlocks = 64.0
    /// A block's phase noisier than this (radians; 13 dB of tone over noise
    /// in the block) is too noisy to unwrap safely: no span.
    static let maximumPhaseSigma = 0.22
    /// How far off the reference may be, in phase per block, as a multiple
    /// of a block's phase noise (`referenceIsOff`).
    static let referenceSlopeNoiseRatio = 10.0
    /// Blocks are at least this long, and at least two periods of the tone.
    static let minimumBlockFrames = 256

    public let sampleRateHz: Double
    public let windowFrames: Int
    public let hopFrames: Int
    /// The longest span, in frames.
    public let maxFrames: Int
    /// Unwrapped phase (radians) and amplitude of each block of the span, a
    /// ring of `capacity`: the span's block `j` is at `j % capacity`.
    let phases: UnsafeMutablePointer<Double>
    let amplitudes: UnsafeMutablePointer<Double>
    let capacity: Int

    /// The span: blocks `firstBlock ..< firstBlock + blockCount`, block `j`
    /// covering stream frames `originFrame + j·blockFrames` on.
    var blockFrames = 0
    var firstBlock = 0
    var blockCount = 0
    var originFrame = 0
    /// The reference frequency, radians per sample.
    var referenceOmega = 0.0
    /// The line through the phases: at block `centreBlock`, `phaseAtCentre`; `slope` per block.
    var centreBlock = 0.0
    var phaseAtCentre = 0.0
    var slope = 0.0
    /// The newest block's phase noise (radians).
    var phaseSigma = 0.0
    /// Mean square of the windows' deviations from the span over their
    /// bound's variance (1 for the tone estimator, which reaches the bound).
    /// Kept across spans: it is the detector's, not the note's.
    var windowDeviationRatio = 1.0
    var learntWindows = 0
    /// Mean square of the blocks' phase residuals over the noise's variance, learnt likewise.
    var phaseSpreadRatio = 1.0
    var learntBlocks = 0

    /// - Parameters:
    ///   - maxSeconds: the longest span (more than one window, or the span never exceeds one).
    public init(sampleRateHz: Double, windowFrames: Int, hopFrames: Int, maxSeconds: Double) {
        self.sampleRateHz = sampleRateHz
        self.windowFrames = windowFrames
        self.hopFrames = hopFrames
        maxFrames = max(windowFrames, Int((maxSeconds * sampleRateHz).rounded()))
        capacity = maxFrames / Self.minimumBlockFrames + 2
        phases = .allocate(capacity: capacity)
        amplitudes = .allocate(capacity: capacity)
    }

    deinit {
        phases.deallocate()
        amplitudes.deallocate()
    }

    /// Frames the span holds now.
    public var spanFrames: Int { blockCount * blockFrames }

    /// Ends the span (silence, a gap, new settings).
    public func reset() {
        blockCount = 0
    }

    /// `reading`, of the window `frame` ending at stream frame `endFrame`,
    /// with its frequency fitted over the steady span, and `spanSeconds` set,
    /// when that span is longer than the window; else `reading` as it is.
    public func refine(_ reading: ToneReading, frame: UnsafeBufferPointer<Float>, endFrame: Int) -> ToneReading {
        var refined = reading
        guard let windowHz = reading.frequencyHz, windowHz.isFinite, windowHz > 0, !reading.invalidInput,
              let snrDB = reading.snrDB, snrDB.isFinite, frame.count == windowFrames else {
            reset()
            return reading
        }
        let windowSigmaHz = CramerRaoBound.sigmaHz(snrDB: snrDB, frames: windowFrames, sampleRateHz: sampleRateHz)
        if blockCount > 0 {
            // The blocks first (level and phase steps): a note change they catch teaches the spread nothing.
            let deviationHz = windowHz - frequencyHz
            if !extend(frame, endFrame: endFrame) {
                                reset()
            } else {
                // Learnt from the windows that agree only (what fails a gate does not widen it).
                if agrees(deviationHz: deviationHz, windowHz: windowHz, sigmaHz: windowSigmaHz) {
                    learn(deviationHz: deviationHz, sigmaHz: windowSigmaHz)
                } else {
                    reset()
                }
            }
        }
        if blockCount == 0 {
            start(frame, endFrame: endFrame, frequencyHz: windowHz)
            return refined
        }
        // One window's worth or less: the window's own fit is as good.
        guard spanFrames > windowFrames else { return refined }
        refined.frequencyHz = frequencyHz
        refined.spanSeconds = Double(spanFrames) / sampleRateHz
        return refined
    }

    /// The span's frequency: the reference plus the phase line's slope.
    var frequencyHz: Double {
        (referenceOmega + slope / Double(blockFrames)) * sampleRateHz / (2 * Double.pi)
    }

    /// Whether the window's frequency is the span's, within the window's
    /// spread: its bound, or what the detector has shown (the pitch detector's
    /// windows scatter wider than the bound; the tone estimator's do not).
    private func agrees(deviationHz: Double, windowHz: Double, sigmaHz: Double) -> Bool {
        let floorHz = windowHz * (exp2(Self.agreementFloorCents / 1200) - 1)
        let spreadHz = max(sigmaHz, (windowDeviationRatio * sigmaHz * sigmaHz).squareRoot())
        return abs(deviationHz) <= max(Self.agreementSigmas * spreadHz, floorHz)
    }

    /// Learns the windows' spread around the span (as a multiple of their
    /// bound's variance): a mean over the first windows, then over the last
    /// `spreadWindows`, each deviation counted at most 9× the spread known
    /// (3 of its σ), so a note change that slipped through teaches it little.
    private func learn(deviationHz: Double, sigmaHz: Double) {
        let ratio = deviationHz * deviationHz / (sigmaHz * sigmaHz)
        learntWindows += 1
        let weight = 1 / min(Double(learntWindows), Self.spreadWindows)
        windowDeviationRatio += (min(ratio, 9 * windowDeviationRatio) - windowDeviationRatio) * weight
        windowDeviationRatio = min(max(windowDeviationRatio, 1), Self.spreadRatioMax)
    }
}
