#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one probe period along a delay that moves inside it: a receiver
/// re-timing itself after a burst (zita-n2j's resampler ran up to 0.5 %
/// fast for seconds, moving the delay by 80 frames within one period).
///
/// One delay for the whole period (what `LinkEstimator` fits first) cannot
/// follow that: every block looks broken although every frame arrived. So
/// the period is cut into `segmentFrames`-frame segments, each segment's
/// own delay is found by correlating it with the probe near the whole
/// period's delay, the delay path runs through the segments that are
/// clearly probe, and the probe is played along that path (a windowed-sinc
/// interpolator) to find the blocks that are still broken: those are audio
/// lost, not audio late.
///
/// A link that inverts is followed (the sign is read); one that turns the
/// probe's phase otherwise finds no segment and keeps the whole-period fit.
///
/// Immutable after init; the estimator's (worker thread).
final class LinkPathFit {
    let probe: LinkProbe
    /// Frames per segment: short enough that a delay moving 0.5 % drifts by
    /// little more than a frame across one (1.28), long enough to find the probe in it.
    static let segmentFrames = 256
    /// How far (frames) a segment's delay may be from the whole period's.
    static let searchFrames = 160
    /// Normalised correlation a segment needs to count as probe (a segment
    /// of noise reaches about 0.2; a segment of probe moving 0.5 % about 0.8).
    static let minimumCorrelation = 0.5

    /// What a period read along its path gives.
    struct Result {
        var latencyFrames: Double
        /// Negative for an inverted link.
        var gain: Double
        var residualDB: Double
        var badBlocks: [Bool]
    }

    private let interpolator = BandLimitedInterpolator()
    /// The probe with `halfTaps` + 1 samples of the period's other end on each side.
    private let wrappedProbe: [Double]

    init(probe: LinkProbe) {
        self.probe = probe
        let period = probe.periodFrames, taps = BandLimitedInterpolator.halfTaps
        wrappedProbe = (-taps..<(period + taps + 1)).map { Double(probe.samples[($0 % period + period) % period]) }
    }

    /// - Parameters:
    ///   - samples: one period as received.
    ///   - start: the stream frame of `samples[0]` modulo the period.
    ///   - aroundFrames: the whole period's delay (whole frames), where the segments look.
    /// - Returns: nil when fewer than one segment in eight is clearly probe.
    func read(_ samples: [Double], start: Int, aroundFrames: Int) -> Result? {
        let period = probe.periodFrames
        let segment = Self.segmentFrames
        let segments = period / segment
        var centres: [Double] = []
        var delays: [Double] = []
        var signs = 0.0
        for index in 0..<segments {
            guard let found = segmentDelay(samples, from: index * segment, start: start, around: aroundFrames) else { continue }
            centres.append(Double(index * segment) + Double(segment) / 2)
            delays.append(found.delay)
            signs += found.inverted ? -1 : 1
        }
        guard delays.count * 8 >= segments else { return nil }
        let path = { (frame: Double) in Self.interpolate(frame, centres, delays) }
        // The probe played along the path, at unit gain.
        let sign = signs < 0 ? -1.0 : 1.0
        let model = (0..<period).map { index in
            sign * probeValue(at: Double(start + index) - path(Double(index)))
        }

        // The gain: the median of the blocks' least-squares gains (a gap's
        // blocks are the minority; a segment's correlation peak would read
        // low where the delay moves inside it).
        let blockFrames = LinkEstimator.blockFrames
        let blocks = period / blockFrames
        var blockGains: [Double] = []
        blockGains.reserveCapacity(blocks)
        for block in 0..<blocks {
            var cross = 0.0, power = 0.0
            for index in block * blockFrames..<(block + 1) * blockFrames {
                cross += samples[index] * model[index]
                power += model[index] * model[index]
            }
            blockGains.append(power > 0 ? cross / power : 0)
        }
        blockGains.sort()
        let gain = blockGains[blocks / 2]

        let (badBlocks, residualDB, _) = LinkEstimator.judge(samples, against: model.map { gain * $0 },
                                                             probePower: probe.meanPower * gain * gain)
        return Result(latencyFrames: path(Double(period) / 2), gain: signs < 0 ? -gain : gain, residualDB: residualDB,
                      badBlocks: badBlocks)
    }

    /// The delay (frames, fractional) of one segment and whether it is inverted, when it is clearly probe.
    private func segmentDelay(_ samples: [Double], from first: Int, start: Int,
                              around: Int) -> (delay: Double, inverted: Bool)? {
        let period = probe.periodFrames
        let count = Self.segmentFrames
        var energy = 0.0
        for index in first..<(first + count) { energy += samples[index] * samples[index] }
        guard energy > 0 else { return nil }
        // Correlation at whole lags near `around`: Σ y[n]·x[start + n − lag];
        // the peak is looked for within ±searchFrames, the interpolator's taps
        // beyond that are there for its fraction.
        let margin = BandLimitedInterpolator.halfTaps + 1
        let lags = (around - Self.searchFrames - margin)...(around + Self.searchFrames + margin)
        let searched = (around - Self.searchFrames)...(around + Self.searchFrames)
        var best = (lag: around, value: 0.0)
        var values = [Double](repeating: 0, count: lags.count)
        for (slot, lag) in lags.enumerated() {
            var sum = 0.0
            var position = ((start + first - lag) % period + period) % period
            for index in first..<(first + count) {
                sum += samples[index] * Double(probe.samples[position])
                position += 1
                if position == period { position = 0 }
            }
            values[slot] = sum
            if searched.contains(lag), abs(sum) > abs(best.value) { best = (lag, sum) }
        }
        var probeEnergy = 0.0
        var position = ((start + first - best.lag) % period + period) % period
        for _ in 0..<count {
            probeEnergy += Double(probe.samples[position] * probe.samples[position])
            position += 1
            if position == period { position = 0 }
        }
        guard probeEnergy > 0, abs(best.value) >= Self.minimumCorrelation * (energy * probeEnergy).squareRoot() else {
            return nil
        }
        let fraction = peakFraction(values, at: best.lag - lags.lowerBound)
        return (Double(best.lag) + fraction, best.value < 0)
    }

    /// Where between whole lags the correlation peaks: the correlation is
    /// band-limited like the probe, so the windowed sinc through its samples
    /// is the curve between them; its top is found by golden section within
    /// ±0.6 of `slot`. (A parabola through three samples is off by up to a
    /// tenth of a frame on this peak.)
    func peakFraction(_ values: [Double], at slot: Int) -> Double {
        let taps = BandLimitedInterpolator.halfTaps
        // The golden section looks up to 0.6 either side: a whole tap more than the interpolator's each way.
        guard slot - taps >= 0, slot + taps + 1 < values.count else { return 0 }
        let height = { (offset: Double) -> Double in
            abs(self.interpolator.value(at: Double(slot) + offset) { values[$0] })
        }
        var low = -0.6, high = 0.6
        let ratio = (5.0.squareRoot() - 1) / 2
        var left = high - ratio * (high - low), right = low + ratio * (high - low)
        var leftHeight = height(left), rightHeight = height(right)
        for _ in 0..<40 {
            if leftHeight > rightHeight {
                high = right
                right = left
                rightHeight = leftHeight
                left = high - ratio * (high - low)
                leftHeight = height(left)
            } else {
                low = left
                left = right
                leftHeight = rightHeight
                right = low + ratio * (high - low)
                rightHeight = height(right)
            }
        }
        // The interpolator blends its table linearly between phases, so the
        // curve is straight between them and golden section stops on a phase:
        // a parabola through that phase and its neighbours finds the top between.
        let step = 1 / Double(BandLimitedInterpolator.phases)
        let knot = ((low + high) / 2 / step).rounded() * step
        let below = height(knot - step), at = height(knot), above = height(knot + step)
        let curvature = below - 2 * at + above
        guard curvature < 0 else { return knot }
        return knot + max(-step, min(step, 0.5 * step * (below - above) / curvature))
    }

    /// The probe (periodic) between its samples: the position folded into
    /// one period, the taps read from a copy with the period's ends wrapped on.
    private func probeValue(at position: Double) -> Double {
        let period = Double(probe.periodFrames)
        let folded = position - period * (position / period).rounded(.down)
        return interpolator.value(at: folded) { wrappedProbe[$0 + BandLimitedInterpolator.halfTaps] }
    }

    /// Piecewise-linear through (`xs`, `ys`), carried on at the ends by the nearest two points' slope.
    static func interpolate(_ x: Double, _ xs: [Double], _ ys: [Double]) -> Double {
        guard xs.count > 1 else { return ys.first ?? 0 }
        var upper = xs.firstIndex { $0 >= x } ?? xs.count - 1
        upper = max(1, upper)
        let lower = upper - 1
        let slope = (ys[upper] - ys[lower]) / (xs[upper] - xs[lower])
        return ys[lower] + slope * (x - xs[lower])
    }
}
