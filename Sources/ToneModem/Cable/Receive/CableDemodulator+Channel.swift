#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ToneDSP

extension CableDemodulator {
    /// Half-width of the channel smoother, in carriers.
    static let smoothingHalfWidth = 6
    /// The smoothed estimate's noise against one carrier's raw estimate (quadratic Savitzky–Golay, ±6).
    static let smoothedEstimateShare = 0.175

    /// The per-carrier channel estimate smoothed along frequency: the common
    /// phase slope (a delay) taken out, a local quadratic fit over ±6 carriers
    /// (exact for a gain, an EQ or a delay that bends slowly over 300 Hz; it
    /// cuts the estimate's noise about sixfold), the slope put back.
    static func smoothed(_ channel: [Complex]) -> [Complex] {
        let count = channel.count
        guard count > 2 * smoothingHalfWidth else { return channel }
        var turn = Complex(0, 0)
        for index in 1..<count { turn = turn + channel[index] * channel[index - 1].conjugate }
        let slope = turn.phase
        let flat = channel.enumerated().map { index, value in value * Complex(cos(-slope * Double(index)), sin(-slope * Double(index))) }
        return (0..<count).map { index in
            let width = min(smoothingHalfWidth, index, count - 1 - index)
            var sum = Complex(0, 0)
            for offset in -width...width {
                let weight = savitzkyGolayWeight(offset: offset, halfWidth: width)
                sum = sum + Complex(flat[index + offset].re * weight, flat[index + offset].im * weight)
            }
            return sum * Complex(cos(slope * Double(index)), sin(slope * Double(index)))
        }
    }

    /// The centre weight of a quadratic Savitzky–Golay smoother of half-width `halfWidth` for `offset`.
    private static func savitzkyGolayWeight(offset: Int, halfWidth: Int) -> Double {
        guard halfWidth > 1 else { return offset == 0 ? 1 : 0 }
        let m = Double(halfWidth)
        let i = Double(offset)
        return 3 * (3 * m * m + 3 * m - 1 - 5 * i * i) / ((2 * m + 3) * (2 * m + 1) * (2 * m - 1))
    }
}
