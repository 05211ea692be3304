#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a cable transmission's samples lie in the received stream, tracked
/// from symbol to symbol: transmitted sample `u` (from the chirp's start) is
/// read at stream position `start + u + offset(u)`, with
/// `offset(u) = offsetAtReference + rate · (u − reference)`. `rate` is the
/// sample-rate offset (a resampling path's ratio − 1: zita-njbridge's
/// wanders by some ppm; a clock offset of a sound card's loop); the training
/// symbols give its first estimate, every decoded frame a correction of the
/// offset and the rate (a second-order loop), and of the common phase.
struct CableTiming {
    var rate = 0.0
    var reference = 0
    var offsetAtReference = 0.0
    /// Common phase taken out of every carrier after equalization (radians).
    var phase = 0.0

    /// Share of a measured offset error corrected at once; share (per frame span) taken into the rate.
    static let offsetGain = 0.6
    static let rateGain = 0.15

    func offset(at sample: Int) -> Double { offsetAtReference + rate * Double(sample - reference) }

    /// Takes what a frame's known symbols showed: its content `delay` samples
    /// later than where it was read, and `phaseError` radians, at transmitted
    /// sample `sample` (the frame's middle), `span` samples after the last correction.
    mutating func correct(delay: Double, phaseError: Double, at sample: Int, span: Int) {
        offsetAtReference = offset(at: sample) + Self.offsetGain * delay
        reference = sample
        rate += Self.rateGain * delay / Double(max(1, span))
        phase += Self.offsetGain * phaseError
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
