#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Square QAM of 2, 4 … 24 bits per carrier, unit mean energy, labelled for
/// multilevel coding. Each axis is a PAM of L = 2^m levels, the odd integers
/// ±1 … ±(L − 1); level index n = h · 2^c + u, where the `codedLevels` lowest
/// bits u (c = min(m, 2), Gray-labelled, cyclic) carry LDPC-coded bits and the
/// upper bits h (natural binary) are sent as they are. Points that share u lie
/// 2^(c+1) apart, so once the code has fixed u the upper bits are read with a
/// half-distance of 2^c (12 dB above the coded levels' at c = 2).
enum CableQAM {
    static let codedLevels = 2
    /// Gray label ↔ u (cyclic for c ≤ 2).
    private static let grayOfIndex: [Int] = [0, 1, 3, 2]
    private static let indexOfGray: [Int] = [0, 1, 3, 2]

    /// The amplitude that gives `bits`-bit QAM unit mean energy.
    static func scale(bits: Int) -> Double {
        let count = Double(1 << (bits / 2))
        return (3 / (2 * (count * count - 1))).squareRoot()
    }

    /// Coded bits per axis of a carrier with `bits` bits.
    static func codedBits(axisOf bits: Int) -> Int { min(bits / 2, codedLevels) }

    /// The level (odd integer) of one axis from its coded label and its upper bits.
    static func level(axisBits: Int, codedLabel: Int, upper: Int) -> Double {
        let coded = min(axisBits, codedLevels)
        let index = upper << coded | indexOfGray[codedLabel]
        return Double(2 * index - ((1 << axisBits) - 1))
    }

    /// Soft values (positive: bit 0) of the coded bits of one axis's received
    /// level `y` (in level units), exact over the coded labels (each at its
    /// nearest point), appended to `soft`.
    /// - Parameter variance: noise variance of the axis in level units.
    static func demapCoded(_ y: Double, axisBits: Int, variance: Double, into soft: inout [Float]) {
        let coded = min(axisBits, codedLevels)
        let labels = 1 << coded
        var metric = [Double](repeating: 0, count: 4)
        for index in 0..<labels {
            let distance = y - nearest(y, axisBits: axisBits, codedIndex: index)
            metric[grayOfIndex[index]] = -distance * distance / (2 * variance)
        }
        let top = metric[0..<labels].max() ?? 0
        for bit in 0..<coded {
            var zero = 0.0
            var one = 0.0
            for label in 0..<labels {
                let weight = exp(metric[label] - top)
                if (label >> (coded - 1 - bit)) & 1 == 0 { zero += weight } else { one += weight }
            }
            let value = log(max(zero, 1e-300)) - log(max(one, 1e-300))
            soft.append(Float(max(-30, min(30, value))))
        }
    }

    /// The level nearest `y` whose lowest bits are `codedIndex`.
    private static func nearest(_ y: Double, axisBits: Int, codedIndex: Int) -> Double {
        let coded = min(axisBits, codedLevels)
        let highest = (1 << (axisBits - coded)) - 1
        let position = ((y + Double((1 << axisBits) - 1)) / 2 - Double(codedIndex)) / Double(1 << coded)
        let upper = max(0, min(highest, Int(position.rounded())))
        return Double(2 * (upper << coded | codedIndex) - ((1 << axisBits) - 1))
    }

    /// The upper bits of one axis, given its decoded coded label.
    static func upperBits(_ y: Double, axisBits: Int, codedLabel: Int) -> Int {
        let coded = min(axisBits, codedLevels)
        let level = nearest(y, axisBits: axisBits, codedIndex: indexOfGray[codedLabel])
        return ((Int(level) + (1 << axisBits) - 1) / 2) >> coded
    }
}
