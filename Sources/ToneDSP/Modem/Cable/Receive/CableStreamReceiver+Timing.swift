#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CableStreamReceiver {
    /// Samples past the second training symbol that must be in before training
    /// (its second reading, stretched by the rate the first found: 30 000 ppm).
    static let trainingMargin = 64
    /// Training SNR (mean over the bands, dB) from which decoded frames correct the timing.
    static let minimumTrackingSNRdB = 30.0

    /// Transmitted sample (from the chirp's start) where symbol `index`'s FFT block starts: half the prefix in.
    func blockStart(_ index: Int) -> Int { geometry.symbolStart(index) + geometry.prefixSamples / 2 }

    /// Stream samples symbol `index`'s FFT block is read from, where the timing puts it (the resampler's taps included).
    func readRange(_ transmission: Transmission, symbol index: Int) -> Range<Int> {
        let start = Double(transmission.start + blockStart(index)) + transmission.timing.offset(at: blockStart(index))
        let last = start + Double(geometry.fftSize - 1) * (1 + transmission.timing.rate)
        return (Int(start.rounded(.down)) - CableResampler.halfTaps + 1)..<(Int(last.rounded(.down)) + CableResampler.halfTaps + 1)
    }

    /// Symbol `index`'s carriers, read where the timing puts it, stretched by
    /// its rate, the common phase taken out. Its samples must be in the buffer.
    func spectrum(_ transmission: Transmission, symbol index: Int) -> [Complex] {
        let timing = transmission.timing
        let start = Double(transmission.start + blockStart(index) - bufferStart) + timing.offset(at: blockStart(index))
        buffer.withUnsafeBufferPointer { samples in
            CableResampler.read(samples, start: start, step: 1 + timing.rate, count: geometry.fftSize, into: symbolFFT.real)
        }
        symbolFFT.forward()
        let turn = Complex(cos(-timing.phase), sin(-timing.phase))
        return (0..<geometry.carrierCount).map {
            Complex(symbolFFT.bins[2 * (geometry.firstBin + $0)], symbolFFT.bins[2 * (geometry.firstBin + $0) + 1]) * turn
        }
    }

    /// Delay (samples) of what the carriers' phase line says: a block read `d` samples early turns bin `b` by −2π b d / N.
    private func delay(ofSlope slope: Double) -> Double { -slope * Double(geometry.fftSize) / (2 * Double.pi) }

    /// The sample-rate offset from the two identical training symbols (how
    /// far the second slid against the first), read again with it twice;
    /// then the channel per carrier, and the noise after equalizing it, per band.
    func train(_ transmission: inout Transmission) {
        var first = spectrum(transmission, symbol: 0)
        var second = spectrum(transmission, symbol: 1)
        for _ in 0..<2 {
            let turns = (0..<first.count).map { second[$0] * first[$0].conjugate }
            let line = CableTiming.phaseLine(turns, weights: turns.map(\.magnitude), firstBin: geometry.firstBin)
            transmission.timing.rate += delay(ofSlope: line.slope) / Double(geometry.symbolSamples)
            first = spectrum(transmission, symbol: 0)
            second = spectrum(transmission, symbol: 1)
        }
        let carriers = geometry.carrierCount
        var channel = [Complex](repeating: Complex(1, 0), count: carriers)
        var bandNoise = [Double](repeating: 0, count: CablePlan.bandCount)
        var bandCarriers = [Int](repeating: 0, count: CablePlan.bandCount)
        var power = 0.0
        for carrier in 0..<carriers {
            let sum = first[carrier] + second[carrier]
            channel[carrier] = Complex(sum.re / 2, sum.im / 2) / geometry.trainingValue(carrier)
            let difference = Complex(first[carrier].re - second[carrier].re, first[carrier].im - second[carrier].im)
            // Each training copy has noise variance |difference|² / 2; the average half that.
            let band = CablePlan.band(ofCarrier: carrier, carrierCount: carriers)
            bandNoise[band] += difference.magnitudeSquared / 2 / max(channel[carrier].magnitudeSquared, 1e-30)
            bandCarriers[band] += 1
            power += (first[carrier].magnitudeSquared + second[carrier].magnitudeSquared) / 2
        }
        for band in 0..<CablePlan.bandCount { bandNoise[band] = max(bandNoise[band] / Double(max(1, bandCarriers[band])), 1e-16) }
        transmission.channel = CableDemodulator.smoothed(channel)
        transmission.bandNoise = bandNoise
        transmission.bandSNRdB = bandNoise.map { -10 * log10($0) }
        transmission.trainingPower = power / Double(max(1, carriers))
    }

    /// After a frame decoded: its symbols as sent (`sent`, re-encoded from its
    /// bytes) against what was received and equalized show how far the timing
    /// and the common phase are off; the loop takes that in for the frames ahead.
    /// Only where the training read `minimumTrackingSNRdB` or more: below, the
    /// plans are coarse enough not to need it, and the line is too noisy to help
    /// (at 10 dB it cost the noise test its 16-QAM message).
    func track(_ transmission: inout Transmission, received: [[Complex]], sent: [[Complex]], variances: [Double], frame: Int) {
        let meanSNRdB = transmission.bandSNRdB.reduce(0, +) / Double(max(1, transmission.bandSNRdB.count))
        guard meanSNRdB >= Self.minimumTrackingSNRdB else { return }
        let carriers = geometry.carrierCount
        var turns = [Complex](repeating: Complex(0, 0), count: carriers)
        var weights = [Double](repeating: 0, count: carriers)
        for (got, want) in zip(received, sent) {
            for carrier in 0..<carriers {
                turns[carrier] = turns[carrier] + got[carrier] * want[carrier].conjugate
                weights[carrier] += want[carrier].magnitudeSquared / max(variances[carrier], 1e-30)
            }
        }
        let line = CableTiming.phaseLine(turns, weights: weights, firstBin: geometry.firstBin)
        let firstSymbol = CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame
        // The frame's middle: between its blocks' centres.
        let middle = (blockStart(firstSymbol) + blockStart(firstSymbol + CablePlan.symbolsPerFrame - 1) + geometry.fftSize) / 2
        transmission.timing.correct(delay: delay(ofSlope: line.slope), phaseError: line.intercept, at: middle,
                                    span: middle - transmission.timing.reference)
    }
}
