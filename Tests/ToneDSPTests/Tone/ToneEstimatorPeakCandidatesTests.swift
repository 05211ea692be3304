import Foundation
import Testing
@testable import ToneDSP
import ToneTestSupport

/// `findPeakCandidates` skips eight bins at a time where none reaches the
/// coarse gate; its list must be the plain scalar loop's, bin for bin, in
/// bin order (white-box: fills the estimator's spectrum).
@Suite("ToneEstimator peak candidates")
struct ToneEstimatorPeakCandidatesTests {
    /// The loop `findLocalMaxima` replaced: every bin of the band, one at a time.
    static func scalarCandidates(of estimator: ToneEstimator) -> [Int] {
        let power = estimator.power, floors = estimator.blockFloors, blockCount = estimator.blockCount
        let gateOnCoarse = estimator.coarseGateRatio
        var bins: [Int] = []
        for k in estimator.lowBin...estimator.highBin {
            let peak = power[k]
            guard peak > 0, peak >= power[k - 1], peak >= power[k + 1] else { continue }
            let block = k / ToneEstimator.blockBins
            let coarse = min(floors[max(0, block - 1)], floors[block], floors[min(blockCount - 1, block + 1)])
            if peak >= gateOnCoarse * coarse { bins.append(k) }
        }
        return bins
    }

    /// One of three seeded spectra: white-noise power whose level jumps over
    /// 60 dB, with loud spikes; flat runs of a few levels (equal neighbours,
    /// flat-topped peaks, zeros); or noise with runs of exact zeros long
    /// enough to zero whole blocks' floors, and copied neighbours.
    static func fill(_ power: UnsafeMutablePointer<Double>, bins: Int, kind: Int, random: inout SeededRandom) {
        var k = 0
        switch kind {
        case 0:
            while k < bins {
                let level = pow(10, 6 * random.uniform()), run = 50 + Int(random.uniform() * 100)
                for bin in k..<min(bins, k + run) {
                    power[bin] = level * log(1 / (1 - random.uniform())) * (random.uniform() < 0.01 ? 1e4 : 1)
                }
                k += run
            }
        case 1:
            let levels: [Double] = [0, 1, 1, 2, 4, 16, 256]
            while k < bins {
                let level = levels[Int(random.uniform() * Double(levels.count))], run = 1 + Int(random.uniform() * 6)
                for bin in k..<min(bins, k + run) { power[bin] = level }
                k += run
            }
        default:
            for bin in 0..<bins { power[bin] = log(1 / (1 - random.uniform())) }
            for _ in 0..<3 {
                let start = Int(random.uniform() * Double(bins)), run = 32 + Int(random.uniform() * 70)
                for bin in start..<min(bins, start + run) { power[bin] = 0 }
            }
            for _ in 0..<bins / 16 {
                let bin = Int(random.uniform() * Double(bins - 1))
                power[bin + 1] = power[bin]
            }
        }
    }

    @Test("the candidates are the scalar loop's on seeded spectra, bands at odd offsets, ties included",
          arguments: [256, 1024, 4096, 16_384])
    func matchesTheScalarLoop(fftSize: Int) throws {
        let half = fftSize / 2
        let binHz = TestSignal.sampleRateHz / Double(fftSize)
        var random = SeededRandom(seed: UInt64(fftSize) + 5)
        // The whole band; one within a block, three bins; two at random
        // offsets from steps and blocks.
        var bands = [(1, half - 1), (37, 39)]
        for _ in 0..<2 {
            let low = 1 + Int(random.uniform() * Double(half / 2))
            bands.append((low, low + 2 + Int(random.uniform() * Double(half - 3 - low))))
        }
        var spectra = 0, candidates = 0, plateauPeaks = 0, zeroFloors = 0, ties = 0
        for (lowBin, highBin) in bands {
            // The default gate (nil: 15 dB at 4096 points), a low one (many
            // candidates), an infinite one (NaN thresholds on zero floors).
            for prominenceMinDB: Double? in [nil, 0, 4000] {
                let estimator = try ToneEstimator(
                    ToneEstimatorConfiguration(sampleRateHz: TestSignal.sampleRateHz, fftSize: fftSize,
                                               lowHz: (Double(lowBin) - 0.5) * binHz,
                                               highHz: (Double(highBin) + 0.5) * binHz,
                                               prominenceMinDB: prominenceMinDB),
                    planning: .estimate)
                try #require(estimator.lowBin == lowBin && estimator.highBin == highBin)
                for spectrum in 0..<24 {
                    Self.fill(estimator.power, bins: half + 1, kind: spectrum % 3, random: &random)
                    try #require(estimator.findPeakCandidates())
                    let expected = Self.scalarCandidates(of: estimator)
                    let gate = prominenceMinDB.map { "\($0) dB" } ?? "default"
                    let label = "\(fftSize) points, bins \(lowBin)…\(highBin), gate \(gate)"
                    #expect(estimator.candidatePeaks == expected, "\(label), spectrum \(spectrum)")
                    spectra += 1
                    candidates += expected.count
                    plateauPeaks += expected.filter { estimator.power[$0 - 1] == estimator.power[$0] ||
                                                      estimator.power[$0 + 1] == estimator.power[$0] }.count
                    zeroFloors += (0..<estimator.blockCount).filter { estimator.blockFloors[$0] == 0 }.count
                    // Ties with the threshold: a candidate lowered to exactly
                    // its threshold (where its neighbours stay below and the
                    // floors do not move) must stay one.
                    let floors = Array(UnsafeBufferPointer(start: estimator.blockFloors, count: estimator.blockCount))
                    var lowered: [Int] = []
                    for bin in expected {
                        let block = bin / ToneEstimator.blockBins
                        let coarse = min(floors[max(0, block - 1)], floors[block],
                                         floors[min(floors.count - 1, block + 1)])
                        let threshold = estimator.coarseGateRatio * coarse
                        guard threshold > 0, threshold.isFinite, estimator.power[bin - 1] < threshold,
                              estimator.power[bin + 1] < threshold else { continue }
                        estimator.power[bin] = threshold
                        lowered.append(bin)
                    }
                    guard !lowered.isEmpty else { continue }
                    try #require(estimator.findPeakCandidates())
                    #expect(estimator.candidatePeaks == Self.scalarCandidates(of: estimator),
                            "\(label), spectrum \(spectrum) with ties")
                    if floors == Array(UnsafeBufferPointer(start: estimator.blockFloors, count: estimator.blockCount)) {
                        ties += lowered.filter(estimator.candidatePeaks.contains).count
                    }
                }
            }
        }
        // The cases the comparison is meant to reach did occur.
        #expect(spectra == bands.count * 3 * 24)
        #expect(candidates > spectra)
        #expect(plateauPeaks > 0)
        #expect(zeroFloors > 0)
        #expect(ties > 0)
    }
}
