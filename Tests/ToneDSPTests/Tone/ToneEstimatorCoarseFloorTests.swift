import Foundation
import Testing
@testable import ToneDSP
import ToneTestSupport

/// The coarse floor of the no-tone gate must never rule out a peak the exact
/// block medians would pass: it is a lower bound of each block's median, and
/// within `floorBucketRatio` of it (white-box: fills the estimator's spectrum).
@Suite("ToneEstimator coarse floor")
struct ToneEstimatorCoarseFloorTests {
    @Test("each block's coarse floor is at most its median and more than the median / 1.5")
    func boundsTheMedian() throws {
        let estimator = try TestSignal.estimator()
        let half = estimator.configuration.fftSize / 2
        var random = SeededRandom(seed: 17)
        var blocksChecked = 0, exactKeys = 0
        for spectrum in 0..<200 {
            // Exponential bins (white-noise power) at a level that changes every
            // 100 bins over 240 dB, some runs of exact zeros, and in some
            // spectra a peak 30 dB above everything (all within the 350 dB
            // the histogram spans).
            var level = 1.0
            for k in 0...half {
                if k % 100 == 0 { level = spectrum % 7 == 0 && k % 300 == 0 ? 0 : pow(10, 12 - 24 * random.uniform()) }
                estimator.power[k] = level * log(1 / (1 - random.uniform()))
            }
            if spectrum % 5 == 0 { estimator.power[Int(random.uniform() * Double(half - 2)) + 1] = 1e15 }
            var total = 0.0
            for k in 0...half { total += estimator.power[k] }
            let keyBase = ToneEstimator.floorKeyBase(totalPower: total)
            for block in 0..<estimator.blockCount {
                let first = max(1, block * ToneEstimator.blockBins)
                let last = min(half, (block + 1) * ToneEstimator.blockBins - 1)
                let median = try #require(estimator.median(from: first, to: last, minimumCount: 1))
                let floor = estimator.blockFloor(from: first, to: last, keyBase: keyBase)
                #expect(floor <= median, "spectrum \(spectrum) block \(block): \(floor) over the median \(median)")
                #expect(floor * ToneEstimator.floorBucketRatio > median || median == 0,
                        "spectrum \(spectrum) block \(block): \(floor) too far under the median \(median)")
                if floor == median { exactKeys += 1 }
                blocksChecked += 1
            }
        }
        #expect(blocksChecked == 200 * estimator.blockCount)
        #expect(exactKeys < blocksChecked / 10, "a lower edge, not the median itself, almost always")
    }
}
