import ToneDSP

/// `tonenode-bench notone [WINDOWS]`: how often the estimator reports a tone
/// in long runs of white and pink noise (consecutive 4096-sample windows at
/// 48 kHz, -20 dBFS RMS), looking for 1 and for 4 tones. Not part of the
/// default report (about a minute for 30 000 windows per case).
enum NoToneRun {
    /// Pink (1/f) noise, Paul Kellet's refined filter (the same as the tests').
    struct PinkNoise {
        var generator: SeededGenerator
        var b0 = 0.0, b1 = 0.0, b2 = 0.0, b3 = 0.0, b4 = 0.0, b5 = 0.0, b6 = 0.0
        mutating func next() -> Double {
            let white = generator.nextGaussian()
            b0 = 0.99886 * b0 + white * 0.0555179
            b1 = 0.99332 * b1 + white * 0.0750759
            b2 = 0.96900 * b2 + white * 0.1538520
            b3 = 0.86650 * b3 + white * 0.3104856
            b4 = 0.55000 * b4 + white * 0.5329522
            b5 = -0.7616 * b5 - white * 0.0168980
            let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362
            b6 = white * 0.115926
            return pink
        }
    }

    static func run(windows: Int) throws {
        let n = 4096
        var frame = [Float](repeating: 0, count: n)
        // 0: the estimator before issue 3 (cb90cd7), for comparison on the same noise.
        for maxTones in [0, 1, 4] {
            let configuration = ToneEstimatorConfiguration(sampleRateHz: 48_000, fftSize: n, maxTones: max(1, maxTones))
            let estimator = try ToneEstimator(configuration, planning: .estimate)
            let baseline = try BaselineToneEstimator(configuration, planning: .estimate)
            for pink in [false, true] {
                var white = SeededGenerator(seed: 0x0A7E)
                var pinkNoise = PinkNoise(generator: SeededGenerator(seed: 0x919C))
                for _ in 0..<20_000 { _ = pinkNoise.next() }
                let sigma = 0.1 / 2.0.squareRoot()
                var reported = 0
                for _ in 0..<windows {
                    for index in 0..<n {
                        frame[index] = Float(pink ? sigma / 3.3 * pinkNoise.next() : sigma * white.nextGaussian())
                    }
                    let reading = frame.withUnsafeBufferPointer {
                        maxTones == 0 ? baseline.estimate($0) : estimator.estimate($0)
                    }
                    if reading.frequencyHz != nil || !reading.tones.isEmpty { reported += 1 }
                }
                let who = maxTones == 0 ? "before issue 3 (cb90cd7)" : "\(maxTones) tone(s) asked"
                print("\(pink ? "pink" : "white") noise, \(who): a tone in \(reported)/\(windows) windows")
            }
        }
    }
}
