import ToneDSP

/// `estimate` looking for 4 tones against looking for 1, on the same windows
/// holding two tones (1 kHz at -18 dBFS and 3 bins above it at -58 dBFS) in
/// a little noise: the price of `--tones 4`.
enum MultiToneBenchmark {
    static func run(sampleRateHz: Double = 48_000, fftSize: Int = 4096, repetitions: Int,
                    targetSeconds: Double) throws -> (comparison: Comparison, tonesFound: Int) {
        let configuration = ToneEstimatorConfiguration(sampleRateHz: sampleRateHz, fftSize: fftSize)
        var four = configuration
        four.maxTones = 4
        let single = try ToneEstimator(configuration, planning: .measure)
        let multi = try ToneEstimator(four, planning: .measure)
        let strong = toneWithNoise(frequencyHz: 1000, levelDBFS: -18, sampleRateHz: sampleRateHz, count: fftSize,
                                   noiseRMS: 1e-4, seed: 0x2701)
        let weak = toneWithNoise(frequencyHz: 1000 + 3 * sampleRateHz / Double(fftSize), levelDBFS: -58,
                                 sampleRateHz: sampleRateHz, count: fftSize, noiseRMS: 0, seed: 0x2702)
        let frame = zip(strong, weak).map { $0 + $1 }
        let tonesFound = frame.withUnsafeBufferPointer { multi.estimate($0).tones.count }
        func workload(_ estimator: ToneEstimator) -> Workload {
            { analyses in
                frame.withUnsafeBufferPointer { window in
                    stopwatch {
                        var checksum = 0.0
                        for _ in 0..<analyses { checksum += estimator.estimate(window).frequencyHz ?? 0 }
                        return checksum
                    }
                }
            }
        }
        let comparison = compare(repetitions: repetitions, targetSeconds: targetSeconds,
                                 toneNode: workload(multi), reference: workload(single))
        return (comparison, tonesFound)
    }
}
