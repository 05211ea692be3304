#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Blocks and the phase line

extension SteadySpan {
    /// One block's tone at the reference frequency.
    struct Block {
        var amplitude: Double
        /// Wrapped to (−π, π].
        var phase: Double
        /// The phase's standard deviation from the block's own residual:
        /// `√(2σ² / (A²·blockFrames))`, σ² the residual's variance. The
        /// block's, not the reading's SNR: the pitch detector's counts every
        /// harmonic, and either may be off for one block.
        var phaseSigma: Double
    }

    /// Starts a span at the newest block of the window `frame` (ending at
    /// `endFrame`), never further back: the older blocks may hold what came
    /// before the tone (noise, a glide, another note), and a block joins a
    /// span only by passing `extend`'s checks as it arrives. The span
    /// outgrows one window a window's time later.
    func start(_ frame: UnsafeBufferPointer<Float>, endFrame: Int, frequencyHz: Double) {
        blockCount = 0
        let periodFrames = Int((2 * sampleRateHz / frequencyHz).rounded(.up))
        blockFrames = min(max(hopFrames, Self.minimumBlockFrames, periodFrames), windowFrames / 2)
        referenceOmega = 2 * Double.pi * frequencyHz / sampleRateHz
        originFrame = endFrame - blockFrames
        firstBlock = 0
        let block = fit(frame, endFrame: endFrame, block: 0)
        guard block.amplitude > 0, block.phaseSigma <= Self.maximumPhaseSigma else { return }
        store(block.amplitude, block.phase, at: 0)
        blockCount = 1
        fitLine()
    }

    /// Adds the blocks that ended since the last hop; false when one of them
    /// is not the span's tone (a step in level or phase, or a block no
    /// longer in the window).
    func extend(_ frame: UnsafeBufferPointer<Float>, endFrame: Int) -> Bool {
        while true {
            let j = firstBlock + blockCount
            let startFrame = originFrame + j * blockFrames
            guard startFrame + blockFrames <= endFrame else { return true }
            guard startFrame >= endFrame - windowFrames else { return false }
            let block = fit(frame, endFrame: endFrame, block: j)
            guard block.phaseSigma <= Self.maximumPhaseSigma else { return false }
            phaseSigma = block.phaseSigma
            let predicted = phaseAtCentre + slope * (Double(j) - centreBlock)
            let phase = predicted + Self.wrapped(block.phase - predicted)
            let residual = phase - predicted
            // Two blocks draw no line yet: only a gross step ends the span there.
            if blockCount >= 3 {
                // Learnt from the blocks that pass only: a transient cannot widen the gate it failed.
                guard abs(residual) <= phaseTolerance else { return false }
                learnPhase(residual: residual)
            } else {
                guard abs(residual) <= Self.phaseStepCeilingRadians else { return false }
            }
            let earlier = j - min(blockCount, 2)
            guard abs(Self.decibels(block.amplitude / amplitudes[earlier % capacity])) <= levelTolerance else { return false }
            if blockCount == capacity || (blockCount + 1) * blockFrames > maxFrames {
                firstBlock += 1
                blockCount -= 1
            }
            store(block.amplitude, phase, at: j)
            blockCount += 1
            fitLine()
            if referenceIsOff {
                // The first window's frequency was off (a window straddling a change): the
                // blocks' fits at it lose accuracy, so the span starts again at the line's frequency.
                start(frame, endFrame: endFrame, frequencyHz: frequencyHz)
                return blockCount > 0
            }
        }
    }

    /// Whether the line's slope (clear of its own noise) shows the reference
    /// so far off that the blocks' fits at it err by more than a tenth of
    /// their noise: a fit at a reference off by Δ radians per block errs by
    /// about Δ/100 (measured), so Δ may be `referenceSlopeNoiseRatio` of the noise.
    private var referenceIsOff: Bool {
        guard blockCount >= 3 else { return false }
        let k = Double(blockCount)
        let slopeSigma = phaseSigma * (12 / (k * k * k - k)).squareRoot()
        return abs(slope) > max(Self.referenceSlopeNoiseRatio * phaseSigma, 4 * slopeSigma, Self.phaseStepFloorRadians)
    }

    /// `phaseStepSigmas` of the blocks' phase scatter about the line as
    /// learnt (white noise gives the bound; harmonics leaking in, or an
    /// instrument's own wander, more), at most `phaseStepCeilingRadians`.
    private var phaseTolerance: Double {
        min(max(Self.phaseStepSigmas * phaseSigma * phaseSpreadRatio.squareRoot(), Self.phaseStepFloorRadians),
            Self.phaseStepCeilingRadians)
    }

    /// Learns the blocks' phase scatter about the line (as a multiple of the
    /// noise's variance) the way `learn(deviationHz:sigmaHz:)` learns the windows'.
    private func learnPhase(residual: Double) {
        let ratio = residual * residual / (phaseSigma * phaseSigma)
        learntBlocks += 1
        let weight = 1 / min(Double(learntBlocks), Self.spreadBlocks)
        phaseSpreadRatio += (min(ratio, 9 * phaseSpreadRatio) - phaseSpreadRatio) * weight
        phaseSpreadRatio = max(phaseSpreadRatio, 1)
    }
    /// A level step, plus six of the noise of two blocks' amplitudes' ratio in dB.
    private var levelTolerance: Double { Self.levelStepDB + 6 * 20 / M_LN10 * phaseSigma }

    private func store(_ amplitude: Double, _ phase: Double, at j: Int) {
        amplitudes[j % capacity] = amplitude
        phases[j % capacity] = phase
    }

    /// Least squares of `a·cos θ + b·sin θ + c` on block `j`, `θ` the
    /// reference's phase from the span's origin.
    func fit(_ frame: UnsafeBufferPointer<Float>, endFrame: Int, block j: Int) -> Block {
        let startFrame = originFrame + j * blockFrames
        let offset = startFrame - (endFrame - windowFrames)
        let start = referenceOmega * Double(startFrame - originFrame)
        var c = cos(start), s = sin(start)
        let stepC = cos(referenceOmega), stepS = sin(referenceOmega)
        var sx = 0.0, sxx = 0.0, sc = 0.0, ss = 0.0, sxc = 0.0, sxs = 0.0, scc = 0.0, scs = 0.0, sss = 0.0
        for n in offset..<(offset + blockFrames) {
            let x = Double(frame[n])
            sx += x; sxx += x * x; sc += c; ss += s
            sxc += x * c; sxs += x * s
            scc += c * c; scs += c * s; sss += s * s
            (c, s) = (c * stepC - s * stepS, s * stepC + c * stepS)
        }
        // The constant projected out: centred sums.
        let count = Double(blockFrames)
        let cxc = sxc - sx * sc / count, cxs = sxs - sx * ss / count
        let ccc = scc - sc * sc / count, ccs = scs - sc * ss / count, css = sss - ss * ss / count
        let determinant = ccc * css - ccs * ccs
        guard determinant > 0 else { return Block(amplitude: 0, phase: 0, phaseSigma: .infinity) }
        let a = (cxc * css - cxs * ccs) / determinant
        let b = (cxs * ccc - cxc * ccs) / determinant
        // The residual's sum of squares: the centred total less what the fit explains.
        let residual = max(sxx - sx * sx / count - (a * cxc + b * cxs), 0)
        let noiseVariance = residual / (count - 3)
        let power = a * a + b * b
        let phaseSigma = power > 0 ? (2 * noiseVariance / (power * count)).squareRoot() : .infinity
        // a·cos θ + b·sin θ = Re[(a − ib)·e^{iθ}].
        return Block(amplitude: power.squareRoot(), phase: atan2(-b, a), phaseSigma: phaseSigma)
    }

    /// The straight line through the span's phases, each weighted by its
    /// block's amplitude squared (its phase's variance goes as 1/amplitude²).
    func fitLine() {
        var weights = 0.0, sumJ = 0.0, sumPhase = 0.0
        for j in firstBlock..<(firstBlock + blockCount) {
            let w = amplitudes[j % capacity] * amplitudes[j % capacity]
            weights += w
            sumJ += w * Double(j)
            sumPhase += w * phases[j % capacity]
        }
        guard weights > 0 else {
            blockCount = 0
            return
        }
        centreBlock = sumJ / weights
        phaseAtCentre = sumPhase / weights
        var sjj = 0.0, sjp = 0.0
        for j in firstBlock..<(firstBlock + blockCount) {
            let w = amplitudes[j % capacity] * amplitudes[j % capacity]
            let dj = Double(j) - centreBlock
            sjj += w * dj * dj
            sjp += w * dj * (phases[j % capacity] - phaseAtCentre)
        }
        slope = sjj > 0 ? sjp / sjj : 0
    }

    static func wrapped(_ radians: Double) -> Double {
        remainder(radians, 2 * Double.pi)
    }

    static func decibels(_ ratio: Double) -> Double {
        ratio > 0 ? 20 * log10(ratio) : -.infinity
    }
}
