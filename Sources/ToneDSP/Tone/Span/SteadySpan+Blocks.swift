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
    }

    /// Starts a span on the window `frame` (ending at `endFrame`): as many of
    /// its blocks, newest first, as agree with the newest in level and phase
    /// (a tone that began inside the window brings none of the noise before it).
    func start(_ frame: UnsafeBufferPointer<Float>, endFrame: Int, frequencyHz: Double) {
        blockCount = 0
        let periodFrames = Int((2 * sampleRateHz / frequencyHz).rounded(.up))
        blockFrames = min(max(hopFrames, Self.minimumBlockFrames, periodFrames), windowFrames / 2)
        guard snr * Double(blockFrames) >= Self.minimumBlockSNR else { return }
        referenceOmega = 2 * Double.pi * frequencyHz / sampleRateHz
        let fitting = min(windowFrames / blockFrames, capacity, maxFrames / blockFrames)
        originFrame = endFrame - fitting * blockFrames
        var newer: Double?
        var newest = 0.0
        var first = fitting
        for j in stride(from: fitting - 1, through: 0, by: -1) {
            let block = fit(frame, endFrame: endFrame, block: j)
            let phase: Double
            if let newer {
                phase = newer + Self.wrapped(block.phase - newer)
                guard abs(phase - newer) <= phaseTolerance, abs(Self.decibels(block.amplitude / newest)) <= levelTolerance
                else { break }
            } else {
                phase = block.phase
                newest = block.amplitude
            }
            store(block.amplitude, phase, at: j)
            newer = phase
            first = j
        }
        firstBlock = first
        blockCount = fitting - first
        fitLine()
    }

    /// Adds the blocks that ended since the last hop; false when one of them
    /// is not the span's tone (a step in level or phase, or a block no
    /// longer in the window).
    func extend(_ frame: UnsafeBufferPointer<Float>, endFrame: Int) -> Bool {
        guard snr * Double(blockFrames) >= Self.minimumBlockSNR else { return false }
        while true {
            let j = firstBlock + blockCount
            let startFrame = originFrame + j * blockFrames
            guard startFrame + blockFrames <= endFrame else { return true }
            guard startFrame >= endFrame - windowFrames else { return false }
            let block = fit(frame, endFrame: endFrame, block: j)
            let predicted = phaseAtCentre + slope * (Double(j) - centreBlock)
            let phase = predicted + Self.wrapped(block.phase - predicted)
            guard abs(phase - predicted) <= phaseTolerance else { return false }
            let earlier = j - min(blockCount, 2)
            guard abs(Self.decibels(block.amplitude / amplitudes[earlier % capacity])) <= levelTolerance else { return false }
            if blockCount == capacity || (blockCount + 1) * blockFrames > maxFrames {
                firstBlock += 1
                blockCount -= 1
            }
            store(block.amplitude, phase, at: j)
            blockCount += 1
            fitLine()
        }
    }

    /// The phase noise of one block, in radians: `1/√(SNR · blockFrames)`.
    private var phaseSigma: Double { 1 / (snr * Double(blockFrames)).squareRoot() }
    private var phaseTolerance: Double { max(Self.phaseStepSigmas * phaseSigma, Self.phaseStepFloorRadians) }
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
        var sx = 0.0, sc = 0.0, ss = 0.0, sxc = 0.0, sxs = 0.0, scc = 0.0, scs = 0.0, sss = 0.0
        for n in offset..<(offset + blockFrames) {
            let x = Double(frame[n])
            sx += x; sc += c; ss += s
            sxc += x * c; sxs += x * s
            scc += c * c; scs += c * s; sss += s * s
            (c, s) = (c * stepC - s * stepS, s * stepC + c * stepS)
        }
        // The constant projected out: centred sums.
        let count = Double(blockFrames)
        let cxc = sxc - sx * sc / count, cxs = sxs - sx * ss / count
        let ccc = scc - sc * sc / count, ccs = scs - sc * ss / count, css = sss - ss * ss / count
        let determinant = ccc * css - ccs * ccs
        guard determinant > 0 else { return Block(amplitude: 0, phase: 0) }
        let a = (cxc * css - cxs * ccs) / determinant
        let b = (cxs * ccc - cxc * ccs) / determinant
        // a·cos θ + b·sin θ = Re[(a − ib)·e^{iθ}].
        return Block(amplitude: (a * a + b * b).squareRoot(), phase: atan2(-b, a))
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
