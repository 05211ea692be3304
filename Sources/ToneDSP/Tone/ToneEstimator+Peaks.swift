#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Peak candidates

extension ToneEstimator {
    /// Bins per block of the coarse floor.
    static let blockBins = 32
    /// How far (power ratio) below the gate a peak may look against the coarse
    /// floor and still be measured against its own local floor: 6 dB, many
    /// times the scatter between the two floors, so the coarse pass only
    /// spares work and never decides. The coarse floor is itself an
    /// underestimate of the block median by less than `floorBucketRatio`, so
    /// the effective margin is 6 to 7.8 dB and never less than the exact
    /// block medians gave.
    static let coarseMargin = 4.0

    /// The local maxima inside the band that may pass the prominence gate,
    /// in `candidatePeaks`; `nextGatedPeak` then measures
    /// them against their own noise floor, one at a time.
    ///
    /// A local floor (the medians of the bins on either side, main lobe
    /// excluded) for every peak of the spectrum is what used to cost most of
    /// an analysis. So a coarse floor comes first: for each block of 32
    /// bins a lower bound of its median (`blockFloor`, within 1.5× of it),
    /// and at a peak the lowest of its own and the neighbouring blocks. Only
    /// peaks within `coarseMargin` of the gate on that floor are candidates:
    /// every peak the exact block medians let through, and a few more (on
    /// a tone at 2 dB SNR in white noise, 16 a window instead of 9).
    /// - Returns: false when the spectrum is not finite (nothing gated).
    func findPeakCandidates() -> Bool {
        candidatePeaks.removeAll(keepingCapacity: true)
        let half = configuration.fftSize / 2
        let power = self.power, blockFloors = self.blockFloors, blockCount = self.blockCount
        // The medians compare values: a non-finite bin (float overflow of an
        // absurdly loud input) would break their order. The bins are ≥ 0, so
        // their sum is finite exactly when every one is (four lanes; the
        // half + 1 bins are a multiple of 4 plus one). The sum is also at
        // least the loudest bin and at most half + 1 times it (11 octaves
        // for 4096 points), which sets the histogram keys' base for
        // `blockFloor`.
        var sums = SIMD4<Double>()
        for k in stride(from: 0, to: half, by: 4) {
            sums += UnsafeRawPointer(power + k).loadUnaligned(as: SIMD4<Double>.self)
        }
        let total = sums.sum() + power[half]
        guard total.isFinite else { return false }
        let keyBase = Self.floorKeyBase(totalPower: total)
        for block in 0..<blockCount {
            let first = max(1, block * Self.blockBins), last = min(half, (block + 1) * Self.blockBins - 1)
            blockFloors[block] = blockFloor(from: first, to: last, keyBase: keyBase)
        }
        let found = findLocalMaxima(into: candidateScratch)
        candidatePeaks.append(contentsOf: UnsafeBufferPointer(start: candidateScratch, count: found))
        return true
    }

    /// A peak is a candidate from this multiple of its coarse floor on: the
    /// prominence gate, less `coarseMargin`, on a mean (median / ln 2) floor.
    var coarseGateRatio: Double { prominenceMinRatio / Self.coarseMargin / log(2.0) }

    /// Writes to `found`, in bin order, every bin of `lowBin…highBin` that
    /// is a local maximum above 0 (at least both neighbours) and at least
    /// `coarseGateRatio` times its coarse floor (the lowest `blockFloors` of
    /// its block and the two beside it).
    ///
    /// About a third of the bins of a clean or noisy spectrum are local
    /// maxima, so testing that first, a branch per bin, mispredicted often.
    /// The threshold rules out nearly every bin (a few dozen candidates a
    /// window of 2048 bins) and is the same across a block, so the band goes
    /// block by block, eight bins a step: one branch a step, almost never
    /// taken, sends a step where some bin reaches the threshold to the
    /// scalar test, which alone decides; a step where none does has no
    /// candidate. Partial steps (the band's edges) take the scalar test.
    /// - Returns: how many bins it wrote (at most `highBin − lowBin + 1`).
    func findLocalMaxima(into found: UnsafeMutablePointer<Int>) -> Int {
        let power = self.power, blockFloors = self.blockFloors, blockCount = self.blockCount
        let gateOnCoarse = coarseGateRatio
        var count = 0, first = lowBin
        while first <= highBin {
            let block = first / Self.blockBins, last = min(highBin, (block + 1) * Self.blockBins - 1)
            let coarse = min(blockFloors[max(0, block - 1)], blockFloors[block], blockFloors[min(blockCount - 1, block + 1)])
            let threshold = gateOnCoarse * coarse
            // A candidate is above 0, so at least leastNonzeroMagnitude; a
            // NaN threshold (an infinite gate on a zero floor) stays NaN:
            // no bin reaches it, as no bin passes the scalar test.
            let floor = threshold < .leastNonzeroMagnitude ? .leastNonzeroMagnitude : threshold
            var k = first
            while k <= last {
                let stepLast = min(last, k &+ 7)
                if stepLast == k &+ 7 {
                    // The loudest of the eight, from four pairs (the width
                    // of SSE2 and NEON registers): an exact maximum, the
                    // bins are finite. safe: k + 7 ≤ highBin < fftSize/2.
                    let bins = UnsafeRawPointer(power + k)
                    let pairs = Self.louder(Self.louder(bins.loadUnaligned(as: SIMD2<Double>.self),
                                                        bins.loadUnaligned(fromByteOffset: 16, as: SIMD2<Double>.self)),
                                            Self.louder(bins.loadUnaligned(fromByteOffset: 32, as: SIMD2<Double>.self),
                                                        bins.loadUnaligned(fromByteOffset: 48, as: SIMD2<Double>.self)))
                    if !(pairs.x >= floor || pairs.y >= floor) {
                        k &+= 8
                        continue
                    }
                }
                for bin in k...stepLast {
                    // The threshold first: it rules out the most bins.
                    let peak = power[bin]
                    if peak >= threshold, peak > 0, peak >= power[bin &- 1], peak >= power[bin &+ 1] {
                        found[count] = bin
                        count &+= 1
                    }
                }
                k = stepLast &+ 1
            }
            first = last + 1
        }
        return count
    }

    /// The larger of each lane of `a` and `b` (either, where equal): one
    /// `maxpd` on x86. The standard `pointwiseMax` follows IEEE `maximum`
    /// (NaN and signed-zero rules) and compiles to a scalar branch per lane.
    @inline(__always)
    static func louder(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
        a.replacing(with: b, where: a .< b)
    }

    /// The next candidate, loudest first, that stands at least the
    /// prominence gate above its own local floor; nil when none is left
    /// with at least `minimumPower`. Only the candidates a caller reaches
    /// pay for their local floor: a search that stops at the loudest tone
    /// measures one peak, not every sidelobe the coarse floor let through.
    func nextGatedPeak(minimumPower: Double = 0) -> Int? {
        // The loudest candidate left (the lowest bin of equals), picked
        // rather than sorted: a search asks for one or two, of a few dozen.
        while !candidatePeaks.isEmpty {
            var loudest = 0
            for position in 1..<candidatePeaks.count where power[candidatePeaks[position]] > power[candidatePeaks[loudest]] {
                loudest = position
            }
            let peak = candidatePeaks[loudest]
            guard power[peak] >= minimumPower else { return nil }
            candidatePeaks.remove(at: loudest)
            if prominence(at: peak) >= prominenceMinRatio { return peak }
        }
        return nil
    }

    /// Where the tone lies relative to bin `peak`, in bins: Grandke's exact
    /// interpolation for the Hann window, from the magnitude ratio of the
    /// peak and its larger neighbour, `δ = (2α − 1)/(α + 1)`. Within about
    /// 10⁻³ bin of a clean tone away from DC (the log-parabola it replaces
    /// was off by up to 0.05 bin), so the least-squares fit that follows
    /// needs one Gauss–Newton pass fewer.
    func interpolatedOffset(at peak: Int) -> Double {
        let centre = power[peak]
        guard centre > 0 else { return 0 }
        let leftRatio = (power[peak - 1] / centre).squareRoot(), rightRatio = (power[peak + 1] / centre).squareRoot()
        let ratio = max(leftRatio, rightRatio)
        let offset = max(0, min(0.5, (2 * ratio - 1) / (ratio + 1)))
        return rightRatio >= leftRatio ? offset : -offset
    }
}
