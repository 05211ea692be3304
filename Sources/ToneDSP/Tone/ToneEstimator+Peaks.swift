#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Spectrum helpers

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
    /// Low bits of a power's bit pattern dropped to make its histogram key:
    /// the 11 exponent bits and the top mantissa bit are kept, so a key is
    /// half an octave wide and keys order like the (non-negative) powers.
    static let floorKeyShift: UInt64 = 51
    /// Histogram buckets (byte counts: a block has `blockBins` bins; keys
    /// below the lowest share bucket 0): 128 octaves under the spectrum's
    /// total power, so at least 128 − log2(fftSize/2 + 1) octaves under its
    /// loudest bin (117, 352 dB, at 4096 points; 108 at the largest window).
    static let floorBuckets = 256
    /// The widest ratio inside one key (2^E and 1.5·2^E start the two halves
    /// of an octave: 1.5 and 4/3), so the lower edge of the median's bucket
    /// is less than 1.5× below the median.
    static let floorBucketRatio = 1.5

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

    /// Power at `peak` over its local noise floor.
    func prominence(at peak: Int) -> Double {
        let lastBin = configuration.fftSize / 2 - 1
        let below = median(from: max(1, peak - Self.floorHalfWidthBins), to: peak - Self.mainLobeBins - 1,
                           minimumCount: Self.floorMinimumBins)
        let above = median(from: peak + Self.mainLobeBins + 1, to: min(lastBin, peak + Self.floorHalfWidthBins),
                           minimumCount: Self.floorMinimumBins)
        let floor = noiseFloor(at: peak, below: below, above: above)
        return floor > 0 ? power[peak] / floor : .infinity
    }

    /// Mean noise power per bin at `peak`, from the medians of the bins below
    /// and above it (main lobe excluded), scaled by 1/ln 2 (median → mean of
    /// an exponential). Where the two sides differ (coloured noise), the
    /// louder side is taken so a slope is not mistaken for a tone. Where there
    /// is no side below (a peak within a few bins of DC), the floor is also
    /// extrapolated down from above, for the same reason.
    func noiseFloor(at peak: Int, below: Double?, above: Double?) -> Double {
        var floor = max(below ?? 0, above ?? 0)
        if below == nil, let trend = extrapolatedFloor(at: peak) { floor = max(floor, trend) }
        return floor / log(2.0)
    }

    /// The noise floor at a peak near DC, extrapolated from above.
    ///
    /// Noise that rises towards DC (pink noise, rumble, wind) follows a power
    /// law there, so the medians of `slopeBands` bands above the main lobe are
    /// fitted with a line in log power against log bin (slope between 0 and
    /// that of brown noise) and the line is read at the peak. For white noise
    /// the line is flat and changes little; for pink noise it restores the
    /// 5–10 dB the bins above understate.
    /// - Returns: a median-scale power (like the side medians), or nil when
    ///   the spectrum is too short or a band median is zero.
    func extrapolatedFloor(at peak: Int) -> Double? {
        let first = peak + Self.mainLobeBins + 1
        let width = min(Self.slopeBandBins, (configuration.fftSize / 2 - first) / Self.slopeBands)
        guard width >= Self.floorMinimumBins else { return nil }
        var sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumXY = 0.0
        for band in 0..<Self.slopeBands {
            let start = first + band * width
            guard let level = median(from: start, to: start + width - 1, minimumCount: Self.floorMinimumBins),
                  level > 0 else { return nil }
            let x = log(Double(start) + Double(width - 1) / 2), y = log(level)
            sumX += x; sumY += y; sumXX += x * x; sumXY += x * y
        }
        let count = Double(Self.slopeBands)
        // Noise near DC is rarely steeper than brown (1/f²); a steeper slope
        // is the skirt of a strong tone's own window sidelobes (1/f⁶), which
        // must not be mistaken for noise that would hide that tone.
        let fitted = (count * sumXY - sumX * sumY) / (count * sumXX - sumX * sumX)
        let slope = min(0, max(Self.steepestNoiseSlope, fitted))
        return exp((sumY + slope * (count * log(Double(peak)) - sumX)) / count)
    }

    /// The larger of each lane of `a` and `b` (either, where equal): one
    /// `maxpd` on x86. The standard `pointwiseMax` follows IEEE `maximum`
    /// (NaN and signed-zero rules) and compiles to a scalar branch per lane.
    @inline(__always)
    static func louder(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
        a.replacing(with: b, where: a .< b)
    }

    /// `blockFloor`'s key base for a spectrum of `totalPower` (finite, ≥ 0):
    /// the total's key less `floorBuckets` − 1.
    static func floorKeyBase(totalPower: Double) -> Int {
        Int(truncatingIfNeeded: totalPower.bitPattern >> floorKeyShift) - (floorBuckets - 1)
    }

    /// A lower bound of the median power of bins `first…last` (the upper
    /// median, as `median`), less than `floorBucketRatio` below it: the lower
    /// edge of the histogram bucket that holds the median.
    ///
    /// The bins' bit patterns, shifted right by `floorKeyShift`, are
    /// half-octave keys that order like the powers (non-negative, finite:
    /// checked before), so the median's key is the median of the keys. The
    /// keys, less `keyBase` (the key of the spectrum's total power less
    /// `floorBuckets` − 1), are counted in byte buckets, and the median bucket
    /// is found from the top down, skipping eight empty buckets a load. One
    /// pass over the bins, no copy, no sort. A median below that range (see
    /// `floorBuckets`; or zero) gives 0, which gates nothing out.
    func blockFloor(from first: Int, to last: Int, keyBase: Int) -> Double {
        let count = last - first + 1
        guard count >= 1 else { return 0 }
        let counts = floorCounts, power = self.power
        var k = first
        // No bin exceeds the total, so no key exceeds the top bucket; the
        // byte index keeps every count inside the histogram regardless.
        @inline(__always) func tally(_ bin: Int) {
            let key = Int(truncatingIfNeeded: power[bin].bitPattern >> Self.floorKeyShift) &- keyBase
            counts[Int(UInt8(truncatingIfNeeded: max(0, key)))] &+= 1
        }
        // Four bins a step (a full block is eight steps), then the rest.
        while k &+ 3 <= last {
            tally(k); tally(k &+ 1); tally(k &+ 2); tally(k &+ 3)
            k &+= 4
        }
        while k <= last {
            tally(k)
            k &+= 1
        }
        // The upper median has count − 1 − count/2 bins above it.
        let aboveMedian = count - 1 - count / 2
        let raw = UnsafeMutableRawPointer(counts)
        var word = Self.floorBuckets / 8 - 1
        while raw.load(fromByteOffset: 8 &* word, as: UInt64.self) == 0 { word &-= 1 }
        // Little-endian: the word's highest non-empty bucket is its highest non-zero byte.
        let highestByte = (63 &- raw.load(fromByteOffset: 8 &* word, as: UInt64.self).leadingZeroBitCount) >> 3
        var bucket = 8 &* word &+ highestByte, above = 0
        while above &+ Int(counts[bucket]) <= aboveMedian {
            above &+= Int(counts[bucket])
            bucket &-= 1
        }
        for offset in stride(from: 0, to: Self.floorBuckets, by: 16) {
            raw.storeBytes(of: SIMD2<UInt64>(), toByteOffset: offset, as: SIMD2<UInt64>.self)
        }
        guard bucket > 0, keyBase &+ bucket > 0 else { return 0 }
        return Double(bitPattern: UInt64(keyBase &+ bucket) << Self.floorKeyShift)
    }

    /// Median power of bins `first…last` (the upper one for an even count);
    /// nil when there are fewer than `minimumCount` bins.
    func median(from first: Int, to last: Int, minimumCount: Int) -> Double? {
        let count = last - first + 1
        guard count >= max(1, minimumCount) else { return nil }
        let medianScratch = self.medianScratch
        medianScratch.update(from: power + first, count: count)
        // Wirth's selection (Hoare partitioning around the target's value):
        // a few dozen values, about 3 comparisons each instead of a sort's
        // count/4. The values are finite (checked before), so it terminates.
        let target = count / 2
        var low = 0, high = count - 1
        while low < high {
            let pivot = medianScratch[target]
            var i = low, j = high
            repeat {
                while medianScratch[i] < pivot { i += 1 }
                while pivot < medianScratch[j] { j -= 1 }
                if i <= j {
                    let swapped = medianScratch[i]
                    medianScratch[i] = medianScratch[j]
                    medianScratch[j] = swapped
                    i += 1
                    j -= 1
                }
            } while i <= j
            if j < target { low = i }
            if target < i { high = j }
        }
        return medianScratch[target]
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
