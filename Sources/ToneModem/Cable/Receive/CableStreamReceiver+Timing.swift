#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ToneDSP

extension CableStreamReceiver {
    /// Samples past the second training symbol that must be in before training
    /// (its second reading, stretched by the rate the first found: 30 000 ppm).
    static let trainingMargin = 64
    /// Training SNR (mean over the bands, dB) from which frames correct the timing.
    static let minimumTrackingSNRdB = 30.0
    /// The largest timing error (samples) a frame that did not decode may correct: slicing to the nearest point,
    /// from the lowest carriers up, sees about 0.07 samples at 65536-QAM (a zita-n2j recording, shifted); far more is
    /// a line through a dropout or noise.
    static let largestBlindCorrection = 0.1

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
        let powers = [first, second].map { $0.reduce(0) { $0 + $1.magnitudeSquared } }
        transmission.trainingUneven = (powers.min() ?? 0) < Self.droppedOutPower * (powers.max() ?? 0)
    }

    /// Whether frames correct the timing: the training read `minimumTrackingSNRdB` or more. Below, the plans are
    /// coarse enough not to need it, and the phase lines are too noisy to help (at 10 dB it cost the noise test its
    /// 16-QAM message).
    func tracks(_ transmission: Transmission) -> Bool {
        transmission.bandSNRdB.reduce(0, +) / Double(max(1, transmission.bandSNRdB.count)) >= Self.minimumTrackingSNRdB
    }

    /// Transmitted sample at the centre of symbol `index`'s FFT block.
    func blockCentre(_ index: Int) -> Int { blockStart(index) + geometry.fftSize / 2 }

    /// The frame's equalized symbols, each with the timing it shows itself
    /// taken out (`CableSymbolAlignment`), and what each showed (delay, phase);
    /// as they are, and no measure, when the transmission is not tracked.
    func align(_ transmission: Transmission, symbols: [[Complex]], carrierBits: [Int],
               variances: [Double]) -> (symbols: [[Complex]], measured: [(delay: Double, phase: Double)]) {
        guard tracks(transmission) else { return (symbols, []) }
        let alignment = CableSymbolAlignment(firstBin: geometry.firstBin, carrierBits: carrierBits, variances: variances)
        guard alignment.isUsable else { return (symbols, []) }
        let results = symbols.map { alignment.aligned($0, fftSize: geometry.fftSize) }
        return (results.map(\.values), results.map { ($0.delay, $0.phase) })
    }

    /// Each of a decoded frame's symbols as received and equalized, against
    /// the same as sent (`sent`, re-encoded from its bytes): how far its
    /// timing and common phase are off, exactly (no decision can be wrong).
    func measure(received: [[Complex]], sent: [[Complex]], variances: [Double]) -> [(delay: Double, phase: Double)] {
        zip(received, sent).map { got, want in
            let turns = (0..<got.count).map { got[$0] * want[$0].conjugate }
            let weights = (0..<got.count).map { want[$0].magnitudeSquared / max(variances[$0], 1e-30) }
            let line = CableTiming.phaseLine(turns, weights: weights, firstBin: geometry.firstBin)
            return (delay(ofSlope: line.slope), line.intercept)
        }
    }

    /// Frame `frame`'s symbols read again, after it did not decode, where
    /// they showed they lie (`measured`, one per symbol): the timing through
    /// those points, each symbol stretched by the rate between them (a
    /// ratio that moved inside the frame smears carriers into each other,
    /// which no phase line takes out). nil when there is nothing to go on.
    func reread(_ transmission: Transmission, frame: Int, measured: [(delay: Double, phase: Double)], carrierBits: [Int],
                variances: [Double]) -> (timing: CableTiming, symbols: [[Complex]], aligned: [[Complex]])? {
        guard measured.count == CablePlan.symbolsPerFrame else { return nil }
        let firstSymbol = CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame
        let indices = firstSymbol..<(firstSymbol + measured.count)
        var retimed = transmission
        retimed.timing.pass(through: measured.map(\.delay), centres: indices.map(blockCentre),
                            phaseError: measured.reduce(0) { $0 + $1.phase } / Double(measured.count))
        guard indices.allSatisfy({
            let range = readRange(retimed, symbol: $0)
            return range.lowerBound >= bufferStart && range.upperBound <= streamSamples
        }) else { return nil }
        let symbols = indices.map { index in
            let values = spectrum(retimed, symbol: index)
            return (0..<values.count).map { values[$0] / transmission.channel[$0] }
        }
        return (retimed.timing, symbols, align(retimed, symbols: symbols, carrierBits: carrierBits, variances: variances).symbols)
    }

    /// The loop takes what frame `frame`'s symbols showed, for the frames ahead.
    func track(_ transmission: inout Transmission, measured: [(delay: Double, phase: Double)], frame: Int) {
        guard !measured.isEmpty else { return }
        let firstSymbol = CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame
        let centres = (0..<measured.count).map { blockCentre(firstSymbol + $0) }
        let phase = measured.reduce(0) { $0 + $1.phase } / Double(measured.count)
        transmission.timing.correct(delays: measured.map(\.delay), centres: centres, phaseError: phase)
    }
}
