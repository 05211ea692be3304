#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one period of returned probe: delay (to a small fraction of a
/// frame), gain, level, how much of it is not the probe, and which blocks
/// of it are broken.
///
/// A window of `periodFrames` frames starting at stream frame `t` holds the
/// periodic probe delayed by `L`: `Y[k] = g·e^{iφ}·X[k]·e^{2πik(t−L)/P}`.
/// The cross-spectrum `C[k] = Y[k]·X̄[k]·e^{−2πikt/P}` over the probe's band,
/// inverse-transformed, peaks at `L` mod `P` (the whole frames); the phase
/// of `C` after removing them is a line `φ − 2πkδ/P` whose slope (weighted
/// least squares, weight |C|) is the fraction `δ` — the same phase-slope
/// reading `ChainAnalyzer` gives a sweep. The fitted model, played back
/// through the inverse transform, is what should have arrived; blocks where
/// what arrived differs from it by more than −6 dB are dropouts.
///
/// Worker thread (it owns an FFT); never the audio thread.
public final class LinkEstimator {
    public let probe: LinkProbe
    /// Frames per block in the dropout map (1.3 ms at 48 kHz).
    public static let blockFrames = 64
    /// A block is broken when its residual is above this, against the probe's power in it.
    public static let badBlockRatio = 0.25

    private let fft: DoubleFFT

    public init(probe: LinkProbe) {
        self.probe = probe
        fft = DoubleFFT(size: probe.periodFrames)!   // safe: a power of two
    }

    /// - Parameters:
    ///   - window: exactly `periodFrames` frames.
    ///   - startFrame: the stream frame of `window[0]` (the same count the probe was played on, for a round trip).
    ///   - timeSeconds: stamped on the reading.
    ///   - driftFramesPerFrame: how fast the delay walks (one way, between
    ///     two clocks): the model that finds broken blocks follows it in
    ///     `modelPieces` pieces, or a drift of 100 ppm (1.6 frames over a
    ///     period) would make every block look broken.
    public func read(_ window: UnsafeBufferPointer<Float>, startFrame: Int, timeSeconds: Double,
                     driftFramesPerFrame: Double = 0) -> LinkReading {
        let period = probe.periodFrames
        precondition(window.count == period, "one probe period per reading")
        let samples = window.map(Double.init)
        let received = samples.withUnsafeBufferPointer { fft.spectrum(of: $0) }
        let start = startFrame % period
        var cross = [Complex](repeating: Complex(0, 0), count: received.count)
        for k in probe.band {
            cross[k] = received[k] * probe.spectrum[k].conjugate * rotation(k: k, frames: -Double(start))
        }
        let correlation = fft.signal(from: cross)
        let whole = ChainAnalyzer.peakIndex(correlation, in: 0..<period)
        let aligned = probe.band.map { cross[$0] * rotation(k: $0, frames: Double(whole)) }
        let (fraction, phase, gain) = fitLine(aligned, band: probe.band)
        var latency = Double(whole) + fraction
        // Just below 0 reads as just below a period: a delay of −0.001 frame is nearer.
        if latency >= Double(period) - 1 { latency -= Double(period) }
        if latency < -1 { latency += Double(period) }

        let expected = model(phase: phase, gain: gain, start: start, latency: latency, drift: driftFramesPerFrame)
        var residualPower = 0.0, receivedPower = 0.0
        var badBlocks: [Bool] = []
        let blocks = period / Self.blockFrames
        badBlocks.reserveCapacity(blocks)
        let probePower = Double(probe.samples.reduce(0) { $0 + $1 * $1 }) / Double(period) * gain * gain
        for block in 0..<blocks {
            var error = 0.0
            for index in block * Self.blockFrames..<(block + 1) * Self.blockFrames {
                let difference = samples[index] - expected[index]
                error += difference * difference
                receivedPower += samples[index] * samples[index]
            }
            residualPower += error
            badBlocks.append(error > Self.badBlockRatio * probePower * Double(Self.blockFrames))
        }
        let residualDB = 10 * log10(max(residualPower, 1e-30) / max(receivedPower, 1e-30))
        let gainDB = 20 * log10(max(gain, 1e-15))
        let levelDBFS = 10 * log10(max(receivedPower / Double(period), 1e-30))
        let hasProbe = gainDB > -60 && residualDB < -3
        return LinkReading(timeSeconds: timeSeconds, latencyFrames: latency, gainDB: gainDB, levelDBFS: levelDBFS,
                           residualDB: residualDB, hasProbe: hasProbe, badBlocks: hasProbe ? badBlocks : [])
    }

    /// What should have arrived: the probe delayed and scaled as fitted; with
    /// a drift, piece by piece at each piece's own delay.
    private func model(phase: Double, gain: Double, start: Int, latency: Double, drift: Double) -> [Double] {
        let period = probe.periodFrames
        let pieces = drift == 0 ? 1 : Self.modelPieces
        let pieceFrames = period / pieces
        let turn = Complex(cos(phase) * gain, sin(phase) * gain)
        var result = [Double](repeating: 0, count: period)
        var bins = [Complex](repeating: Complex(0, 0), count: period / 2 + 1)
        for piece in 0..<pieces {
            let centre = Double(piece * pieceFrames) + Double(pieceFrames) / 2
            let local = latency + drift * (centre - Double(period) / 2)
            for k in probe.band { bins[k] = probe.spectrum[k] * turn * rotation(k: k, frames: Double(start) - local) }
            let signal = fft.signal(from: bins)
            for index in piece * pieceFrames..<(piece + 1) * pieceFrames { result[index] = signal[index] }
        }
        return result
    }

    /// Pieces of a period the model follows a drifting delay in.
    public static let modelPieces = 16

    /// `e^{2πi·k·frames/P}`: a delay of −`frames` on bin `k`.
    private func rotation(k: Int, frames: Double) -> Complex {
        let period = Double(probe.periodFrames)
        // Reduce first: k·frames reaches 10^8 turns, where Double loses the fraction.
        let turns = (Double(k) * frames / period).truncatingRemainder(dividingBy: 1)
        let angle = 2 * Double.pi * turns
        return Complex(cos(angle), sin(angle))
    }

    /// Weighted least squares of the phase of `aligned` (bins `band`) on
    /// `k`: the slope is the fraction of a frame, the intercept the link's
    /// phase (π for an inverted link); the gain is the mean of |C|/|X|².
    private func fitLine(_ aligned: [Complex], band: ClosedRange<Int>) -> (fraction: Double, phase: Double, gain: Double) {
        // Rotate by the mean phase first, so no bin's phase wraps around ±π.
        var sum = Complex(0, 0)
        for value in aligned { sum = sum + value }
        let mean = sum.phase
        let unturn = Complex(cos(-mean), sin(-mean))
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, gainSum = 0.0
        for (offset, value) in aligned.enumerated() {
            let k = band.lowerBound + offset
            let turned = value * unturn
            let weight = turned.magnitude
            gainSum += weight / probe.spectrum[k].magnitudeSquared
            guard weight > 0 else { continue }
            let x = Double(k), y = turned.phase
            sw += weight; sx += weight * x; sy += weight * y
            sxx += weight * x * x; sxy += weight * x * y
        }
        let denominator = sw * sxx - sx * sx
        guard denominator > 0 else { return (0, mean, 0) }
        let slope = (sw * sxy - sx * sy) / denominator
        let intercept = (sy - slope * sx) / sw
        return (-slope * Double(probe.periodFrames) / (2 * Double.pi), mean + intercept, gainSum / Double(aligned.count))
    }
}
