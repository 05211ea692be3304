#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ToneDSP

/// The timing left in one equalized data symbol, read from the symbol itself
/// before its frame is decoded: each carrier sliced to the nearest point of
/// its QAM, the phase line through received × conj(sliced) fitted and taken
/// out. First on the lowest 6 carriers only (a timing error turns carrier
/// `b` by 2π b d / N: low carriers stay within half a point of the right
/// one), then on twice as many, and so on up to all: at 65536-QAM it finds a
/// timing error of up to about 0.07 samples (0.01 with the first pass on a
/// twelfth of the carriers).
///
/// Why: a path that re-times the stream with a ratio that wanders
/// (zita-njbridge's resampler, steered by its DLL) moves the timing by a few
/// thousandths of a sample from one frame to the next in ways no loop
/// predicts (measured through zita-n2j: a linear prediction from the last two
/// frames missed by 0.0025 samples rms, 0.005 at most; a quadratic one by
/// 0.0012 and 0.003), while 65536-QAM at rate 8/9 tolerates about 0.0016
/// samples rms (the phase error at 20 kHz is 2.6 rad a sample). Inside a frame
/// the timing is a straight line within 0.0002 samples in a calm run: each
/// symbol measured on its own is where it is. (A frame whose ratio moved
/// inside it is read again, stretched by what its symbols showed:
/// `CableStreamReceiver.reread`.)
struct CableSymbolAlignment {
    let firstBin: Int
    /// Bits per carrier (0: unused).
    let carrierBits: [Int]
    /// Complex noise variance of each carrier after equalization.
    let variances: [Double]
    /// Carriers whose nearest point is almost surely the one sent: the noise
    /// at most `largestDeviation` of the half-distance between points.
    let reliable: [Bool]

    /// Noise deviation (per axis, in half-distances) up to which a carrier is sliced: a wrong point once in 30 000.
    /// Sliced nearer their limit (a plan at 40 dB), the lines through wrong points cost frames instead of saving them.
    static let largestDeviation = 0.25

    init(firstBin: Int, carrierBits: [Int], variances: [Double]) {
        self.firstBin = firstBin
        self.carrierBits = carrierBits
        self.variances = variances
        reliable = zip(carrierBits, variances).map { bits, variance in
            bits > 0 && (variance / 2).squareRoot() / CableQAM.scale(bits: bits) <= Self.largestDeviation
        }
    }

    /// Whether enough carriers are reliable for a line: otherwise nothing is measured.
    var isUsable: Bool { reliable.filter { $0 }.count >= Self.passes[0] }

    /// Carriers each pass fits on, lowest first (then all, twice).
    static let passes = [6, 12, 24, 48, 96, 192, 384, Int.max, Int.max]

    /// `values` with the timing (the phase line) the symbol shows taken out,
    /// and what that was: the delay (samples) and the common phase (radians).
    func aligned(_ values: [Complex], fftSize: Int) -> (values: [Complex], delay: Double, phase: Double) {
        var current = values
        var totalSlope = 0.0
        var totalIntercept = 0.0
        let count = values.count
        var turns = [Complex](repeating: Complex(0, 0), count: count)
        var weights = [Double](repeating: 0, count: count)
        for carriers in Self.passes {
            let limit = min(count, carriers)
            guard reliable[0..<limit].filter({ $0 }).count >= 3 else { continue }
            for carrier in 0..<count {
                let bits = carrierBits[carrier]
                guard carrier < limit, reliable[carrier] else {
                    weights[carrier] = 0
                    turns[carrier] = Complex(1, 0)
                    continue
                }
                let point = Self.nearest(current[carrier], bits: bits)
                turns[carrier] = current[carrier] * point.conjugate
                weights[carrier] = point.magnitudeSquared / max(variances[carrier], 1e-30)
            }
            let line = CableTiming.phaseLine(Array(turns[0..<limit]), weights: Array(weights[0..<limit]), firstBin: firstBin)
            totalSlope += line.slope
            totalIntercept += line.intercept
            for carrier in 0..<count {
                let angle = -(line.intercept + line.slope * Double(firstBin + carrier))
                current[carrier] = current[carrier] * Complex(cos(angle), sin(angle))
            }
        }
        return (current, -totalSlope * Double(fftSize) / (2 * Double.pi), totalIntercept)
    }

    /// The point of `bits`-bit QAM (`CableQAM`'s scale) nearest `value`.
    static func nearest(_ value: Complex, bits: Int) -> Complex {
        let scale = CableQAM.scale(bits: bits)
        let highest = Double((1 << (bits / 2)) - 1)
        func axis(_ y: Double) -> Double {
            let index = ((y / scale + highest) / 2).rounded()
            return (2 * max(0, min(highest, index)) - highest) * scale
        }
        return Complex(axis(value.re), axis(value.im))
    }
}
