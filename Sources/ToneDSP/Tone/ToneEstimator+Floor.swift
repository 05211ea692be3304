#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Noise floors: the coarse one of each block, the local one of a peak

extension ToneEstimator {
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
}
