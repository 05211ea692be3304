#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ToneDSP

/// Where a cable transmission's samples lie in the received stream, tracked
/// from symbol to symbol: transmitted sample `u` (from the chirp's start) is
/// read at stream position `start + u + offset(u)`, with
/// `offset(u) = offsetAtReference + rate · (u − reference)`. `rate` is the
/// sample-rate offset (a resampling path's ratio − 1: zita-njbridge's
/// wanders by some ppm; a clock offset of a sound card's loop); the training
/// symbols give its first estimate, every frame a correction of the offset
/// and the rate from its symbols' own timing, and of the common phase.
struct CableTiming {
    var rate = 0.0
    var reference = 0
    var offsetAtReference = 0.0
    /// Common phase taken out of every carrier after equalization (radians).
    var phase = 0.0

    /// Share (per frame span) of a frame's mean timing error taken into the rate; share of the slope inside it.
    static let rateGain = 0.2
    static let slopeGain = 0.8
    /// Share of a measured common phase error corrected at once.
    static let phaseGain = 0.6

    func offset(at sample: Int) -> Double { offsetAtReference + rate * Double(sample - reference) }

    /// Takes what a frame's symbols showed, each measured on its own: symbol
    /// `index`'s content `delays[index]` samples later than where it was read
    /// (its block's centre at transmitted sample `centres[index]`), and the
    /// common phase error. The offset at the frame's middle is set where they
    /// put it (each measurement is precise: ±0.0002 samples through zita-n2j);
    /// the rate takes most of the slope between them (a wandering ratio's rate
    /// now) and a share of the mean error over the span since the last correction.
    mutating func correct(delays: [Double], centres: [Int], phaseError: Double) {
        guard let first = centres.first, let last = centres.last, !delays.isEmpty else { return }
        let middle = (first + last) / 2
        let error = delays.reduce(0, +) / Double(delays.count)
        let slope = last > first ? ((delays.last ?? 0) - (delays.first ?? 0)) / Double(last - first) : 0
        let span = middle - reference
        offsetAtReference = offset(at: middle) + error
        reference = middle
        rate += Self.slopeGain * slope
        // Over a span since the last correction (none after a second reading, which set the line here).
        if span >= last - first { rate += Self.rateGain * error / Double(span) }
        phase += Self.phaseGain * phaseError
    }

    /// The timing through what a frame's symbols showed, exactly: the offset
    /// at their middle and the rate between them (a second reading of a frame
    /// that did not decode).
    mutating func pass(through delays: [Double], centres: [Int], phaseError: Double) {
        guard let first = centres.first, let last = centres.last, last > first, delays.count == centres.count else { return }
        let middle = (first + last) / 2
        offsetAtReference = offset(at: middle) + delays.reduce(0, +) / Double(delays.count)
        reference = middle
        rate += ((delays.last ?? 0) - (delays.first ?? 0)) / Double(last - first)
        phase += phaseError
    }

    /// The straight line through per-carrier phases: `values[k]` belongs to
    /// FFT bin `firstBin + k`, its phase ≈ `intercept + slope · bin`, weighted
    /// by `weights` (wrapping handled: first the mean turn from carrier to
    /// carrier, then a least-squares fit of what is left).
    static func phaseLine(_ values: [Complex], weights: [Double], firstBin: Int) -> (slope: Double, intercept: Double) {
        let count = values.count
        guard count > 2 else { return (0, 0) }
        var turn = Complex(0, 0)
        for index in 1..<count { turn = turn + values[index] * values[index - 1].conjugate }
        let coarse = turn.phase
        var mean = Complex(0, 0)
        for index in 0..<count {
            let angle = -coarse * Double(index)
            let value = values[index] * Complex(cos(angle), sin(angle))
            let size = value.magnitude
            if size > 0 { mean = mean + Complex(value.re / size * weights[index], value.im / size * weights[index]) }
        }
        let common = mean.phase
        var (sw, sx, sy, sxx, sxy) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for index in 0..<count where weights[index] > 0 {
            let angle = -coarse * Double(index) - common
            let residual = (values[index] * Complex(cos(angle), sin(angle))).phase
            let x = Double(index)
            let weight = weights[index]
            sw += weight
            sx += weight * x
            sy += weight * residual
            sxx += weight * x * x
            sxy += weight * x * residual
        }
        let determinant = sw * sxx - sx * sx
        guard sw > 0, determinant > 0 else { return (coarse, common - coarse * Double(firstBin)) }
        let fine = (sw * sxy - sx * sy) / determinant
        let offset = (sy - fine * sx) / sw
        let slope = coarse + fine
        return (slope, common + offset - slope * Double(firstBin))
    }
}
