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
    private let pathFit: LinkPathFit

    public init(probe: LinkProbe) {
        self.probe = probe
        fft = DoubleFFT(size: probe.periodFrames)!   // safe: a power of two
        pathFit = LinkPathFit(probe: probe)
    }

    /// - Parameters:
    ///   - window: exactly `periodFrames` frames.
    ///   - startFrame: the stream frame of `window[0]` (the same count the probe was played on, for a round trip).
    ///   - timeSeconds: stamped on the reading.
    ///   - driftFramesPerFrame: how fast the delay walks (one way, between
    ///     two clocks): the model that finds broken blocks follows it in
    ///     `modelPieces` pieces, or a drift of 100 ppm (1.6 frames over a
    ///     period) would make every block look broken.
    ///   - expectedLatencyFrames: where the delay should be by the readings
    ///     before (the last one carried on by the drift): where a period whose
    ///     delay moves too fast for one fit is looked for when that fit lost it.
    public func read(_ window: UnsafeBufferPointer<Float>, startFrame: Int, timeSeconds: Double,
                     driftFramesPerFrame: Double = 0, expectedLatencyFrames: Double? = nil) -> LinkReading {
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
        let latency = folded(Double(whole) + fraction)

        let expected = model(phase: phase, gain: gain, start: start, latency: latency, drift: driftFramesPerFrame)
        let blocks = period / Self.blockFrames
        let (badBlocks, residualDB, receivedPower) = Self.judge(samples, against: expected,
                                                                probePower: probe.meanPower * gain * gain)
        let gainDB = 20 * log10(max(gain, 1e-15))
        let levelDBFS = 10 * log10(max(receivedPower / Double(period), 1e-30))
        let hasProbe = gainDB > -60 && residualDB < -3
        let reading = LinkReading(timeSeconds: timeSeconds, latencyFrames: latency, gainDB: gainDB, levelDBFS: levelDBFS,
                                  residualDB: residualDB, hasProbe: hasProbe, badBlocks: hasProbe ? badBlocks : [])
        let brokenBlocks = badBlocks.count(where: { $0 })
        // Nothing like the probe at all (noise, another signal): not worth a second look.
        guard !hasProbe || brokenBlocks > 0, receivedPower > 0, gainDB > -40 else { return reading }
        let broken = hasProbe ? brokenBlocks : blocks
        if let along = alongPath(than: reading, broken, samples, start: start, aroundFrames: whole) { return along }
        // The period's own delay may be lost (the probe smeared over 80
        // frames): look where the readings before put it, when that is elsewhere.
        guard let expected = expectedLatencyFrames, expected.isFinite else { return reading }
        let around = Int(expected.rounded()) % period
        let apart = abs(around - whole) % period
        guard min(apart, period - apart) > LinkPathFit.searchFrames / 2 else { return reading }
        return alongPath(than: reading, broken, samples, start: start, aroundFrames: around) ?? reading
    }

    /// What arrived against what should have, block by block: the blocks
    /// whose residual passes `badBlockRatio` of the probe's power in them
    /// (`probePower`: a sample's, at the link's gain), the whole residual
    /// against the power received (dB), and that power.
    static func judge(_ samples: [Double], against expected: [Double],
                      probePower: Double) -> (badBlocks: [Bool], residualDB: Double, receivedPower: Double) {
        var residualPower = 0.0, receivedPower = 0.0
        var badBlocks: [Bool] = []
        badBlocks.reserveCapacity(samples.count / Self.blockFrames)
        for block in 0..<(samples.count / Self.blockFrames) {
            var error = 0.0
            for index in block * Self.blockFrames..<(block + 1) * Self.blockFrames {
                let difference = samples[index] - expected[index]
                error += difference * difference
                receivedPower += samples[index] * samples[index]
            }
            residualPower += error
            badBlocks.append(error > Self.badBlockRatio * probePower * Double(Self.blockFrames))
        }
        return (badBlocks, 10 * log10(max(residualPower, 1e-30) / max(receivedPower, 1e-30)), receivedPower)
    }

    /// A delay folded into −1 ..< period − 1: just below 0 reads as just below
    /// a period, and a delay of −0.001 frame is nearer.
    private func folded(_ latency: Double) -> Double {
        let period = Double(probe.periodFrames)
        var latency = latency.truncatingRemainder(dividingBy: period)
        if latency >= period - 1 { latency -= period }
        if latency < -1 { latency += period }
        return latency
    }

    /// A period with broken blocks (or without the probe), read again along
    /// a delay that moves inside it (`LinkPathFit`); nil unless that explains
    /// clearly more of it than `reading` (with `brokenBlocks`): the probe where
    /// `reading` found none, or no more blocks broken and a residual at least
    /// `pathFitMarginDB` lower. Where the delay holds still and a gap is all
    /// that is wrong, the two residuals are the gap's and the first fit stays.
    private func alongPath(than reading: LinkReading, _ brokenBlocks: Int, _ samples: [Double], start: Int,
                           aroundFrames: Int) -> LinkReading? {
        guard let fit = pathFit.read(samples, start: start, aroundFrames: aroundFrames) else { return nil }
        let gainDB = 20 * log10(max(abs(fit.gain), 1e-15))
        let fitBroken = fit.badBlocks.count(where: { $0 })
        guard gainDB > -60, fit.residualDB < -3,
              !reading.hasProbe || (fitBroken <= brokenBlocks && fit.residualDB <= reading.residualDB - Self.pathFitMarginDB)
        else { return nil }
        return LinkReading(timeSeconds: reading.timeSeconds, latencyFrames: folded(fit.latencyFrames), gainDB: gainDB,
                           levelDBFS: reading.levelDBFS, residualDB: fit.residualDB, hasProbe: true, badBlocks: fit.badBlocks)
    }

    /// How much lower (dB) a path fit's residual must be to be taken.
    static let pathFitMarginDB = 3.0

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
