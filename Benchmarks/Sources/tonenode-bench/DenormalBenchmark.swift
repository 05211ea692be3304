import ToneDSP

/// `ToneEstimator.estimate` on a window that is a short burst of tone and then
/// subnormal noise (|x| < 1.2e-38, what a decaying reverb tail or a badly
/// behaved plugin leaves) against the same burst followed by ordinary noise,
/// with the worker's flushing on and off.
enum DenormalBenchmark {
    /// `flushingOnly`: the subnormal window with flushing on (ToneNode) against
    /// the same window with it off. Otherwise: the subnormal window against the
    /// ordinary one, both flushed, as the worker runs.
    static func run(flushingOnly: Bool, repetitions: Int, targetSeconds: Double) throws -> Comparison {
        let estimator = try ToneEstimator(ToneEstimatorConfiguration(sampleRateHz: 48_000, fftSize: 4096),
                                          planning: .measure)
        let subnormal = window(subnormal: true)
        let other = flushingOnly ? subnormal : window(subnormal: false)
        defer { Denormals.setFlushing(false) }
        func workload(_ samples: [Float], flushing: Bool) -> Workload {
            { analyses in
                Denormals.setFlushing(flushing)
                return samples.withUnsafeBufferPointer { window in
                    stopwatch {
                        var checksum = 0.0
                        for _ in 0..<analyses { checksum += estimator.estimate(window).rmsDBFS ?? 0 }
                        return checksum
                    }
                }
            }
        }
        return compare(repetitions: repetitions, targetSeconds: targetSeconds,
                       toneNode: workload(subnormal, flushing: true),
                       reference: workload(other, flushing: !flushingOnly))
    }

    static let burstFrames = 512

    /// A 1 kHz, -18 dBFS burst, then seeded noise at σ 1e-3 or scaled to about 1e-39.
    static func window(subnormal: Bool) -> [Float] {
        let tone = toneWithNoise(frequencyHz: 1_000, levelDBFS: -18, sampleRateHz: 48_000, count: burstFrames,
                                 noiseRMS: 0, seed: 0xDE40_0A11)
        let noise = toneWithNoise(frequencyHz: 1_000, levelDBFS: -400, sampleRateHz: 48_000, count: 4096 - burstFrames,
                                  noiseRMS: 1e-3, seed: 0xDE40_0A12)
        return tone + (subnormal ? noise.map { $0 * 1e-36 } : noise)
    }

    /// How many of the subnormal window's samples really are subnormal.
    static var subnormalShare: Double {
        let samples = window(subnormal: true)
        return Double(samples.filter { $0.isSubnormal }.count) / Double(samples.count)
    }
}
