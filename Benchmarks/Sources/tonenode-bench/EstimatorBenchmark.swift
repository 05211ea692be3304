import ToneDSP

/// `ToneEstimator.estimate` on a −18 dBFS 1 kHz tone with a little noise,
/// against the FFT alone (copy in, FFTW r2c, |X|²) at the same size.
struct EstimatorBenchmark {
    let sampleRateHz: Double
    let fftSize: Int
    let hopFrames: Int

    /// Analyses per second the live worker must sustain.
    var requiredPerSecond: Double { sampleRateHz / Double(hopFrames) }

    enum Failure: Error, CustomStringConvertible {
        case fftUnavailable(Int)
        var description: String {
            switch self { case .fftUnavailable(let size): "FFTW could not plan a transform of \(size) samples" }
        }
    }

    struct Result {
        var comparison: Comparison
        /// Against the estimator as it was before the speed work (`BaselineToneEstimator`).
        var againstBaseline: Comparison
        /// What the estimator made of the first window (a sanity check).
        var reading: ToneReading
    }

    /// Seconds per analysis, ToneNode against the reference.
    func run(repetitions: Int, targetSeconds: Double) throws -> Result {
        // Planned the way the live node plans (FFTPlanning.measure); the
        // reference reuses the wisdom FFTW has just gathered.
        let estimator = try ToneEstimator(ToneEstimatorConfiguration(sampleRateHz: sampleRateHz, fftSize: fftSize),
                                          planning: .measure)
        guard let fft = RealFFT(size: fftSize, planning: .measure) else { throw Failure.fftUnavailable(fftSize) }
        let power = UnsafeMutablePointer<Double>.allocate(capacity: fftSize / 2 + 1)
        defer { power.deallocate() }

        // Eight successive windows, one hop apart, as the worker sees them.
        let windowCount = 8
        let signal = toneWithNoise(frequencyHz: 1_000, levelDBFS: -18, sampleRateHz: sampleRateHz,
                                   count: fftSize + (windowCount - 1) * hopFrames,
                                   noiseRMS: 1e-3, seed: 0x70AE_0DE5)
        let windows = UnsafeMutablePointer<Float>.allocate(capacity: windowCount * fftSize)
        defer { windows.deallocate() }
        for window in 0..<windowCount {
            for index in 0..<fftSize { windows[window * fftSize + index] = signal[window * hopFrames + index] }
        }
        let frame = { (index: Int) in
            UnsafeBufferPointer(start: windows + (index % windowCount) * fftSize, count: fftSize)
        }
        let toneBin = Int((1_000 / sampleRateHz * Double(fftSize)).rounded())

        let reading = estimator.estimate(frame(0))
        let comparison = compare(
            repetitions: repetitions, targetSeconds: targetSeconds,
            toneNode: { analyses in
                stopwatch {
                    var checksum = 0.0
                    for analysis in 0..<analyses {
                        checksum += estimator.estimate(frame(analysis)).frequencyHz ?? 0
                    }
                    return checksum
                }
            },
            reference: { analyses in
                stopwatch {
                    var checksum = 0.0
                    for analysis in 0..<analyses {
                        let source = frame(analysis)
                        for index in 0..<fftSize { fft.input[index] = source[index] }
                        fft.powerSpectrum(into: power)
                        checksum += power[toneBin]
                    }
                    return checksum
                }
            })
        let baseline = try BaselineToneEstimator(
            ToneEstimatorConfiguration(sampleRateHz: sampleRateHz, fftSize: fftSize), planning: .measure)
        let againstBaseline = compare(
            repetitions: repetitions, targetSeconds: targetSeconds,
            toneNode: { analyses in
                stopwatch {
                    var checksum = 0.0
                    for analysis in 0..<analyses { checksum += estimator.estimate(frame(analysis)).frequencyHz ?? 0 }
                    return checksum
                }
            },
            reference: { analyses in
                stopwatch {
                    var checksum = 0.0
                    for analysis in 0..<analyses { checksum += baseline.estimate(frame(analysis)).frequencyHz ?? 0 }
                    return checksum
                }
            })
        return Result(comparison: comparison, againstBaseline: againstBaseline, reading: reading)
    }
}
