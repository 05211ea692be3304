/// Square Gray-coded QAM of 2, 4 … 14 bits per carrier, unit mean energy,
/// and its soft demapper: the first half of the bits choose the in-phase
/// level, the second half the quadrature one. Per axis the levels are the odd
/// integers ±1 … ±(L − 1); bit i of a level is the sign of sᵢ, where
/// s₀ = y and sᵢ = L / 2ⁱ − |sᵢ₋₁| (negative: 1), so the soft demapper is
/// that same recursion (max-log LLRs up to a common scale).
enum CableQAM {
    /// `levels[bits / 2][pattern]`: the level of an axis's bit pattern (first bit most significant).
    private static let levels: [[Double]] = (0...(CablePlan.maximumBits / 2)).map { axisBits in
        guard axisBits > 0 else { return [] }
        let count = 1 << axisBits
        var table = [Double](repeating: 0, count: count)
        for level in stride(from: -(count - 1), through: count - 1, by: 2) {
            var pattern = 0
            var value = Double(level)
            for bit in 0..<axisBits {
                if bit > 0 { value = Double(count >> bit) - abs(value) }
                pattern = pattern << 1 | (value < 0 ? 1 : 0)
            }
            table[pattern] = Double(level)
        }
        return table
    }

    /// The amplitude that gives `bits`-bit QAM unit mean energy.
    static func scale(bits: Int) -> Double {
        let count = Double(1 << (bits / 2))
        return (3 / (2 * (count * count - 1))).squareRoot()
    }

    /// The point for `bits` coded bits taken from `source` at `offset`.
    static func point(_ source: [UInt8], at offset: Int, bits: Int) -> Complex {
        let axisBits = bits / 2
        var inPhase = 0
        var quadrature = 0
        for bit in 0..<axisBits {
            inPhase = inPhase << 1 | Int(source[offset + bit])
            quadrature = quadrature << 1 | Int(source[offset + axisBits + bit])
        }
        let scale = scale(bits: bits)
        return Complex(levels[axisBits][inPhase] * scale, levels[axisBits][quadrature] * scale)
    }

    /// Soft values (positive: bit 0) of an equalized point, appended to `soft`.
    /// - Parameter noiseVariance: complex noise variance at the point (after equalization).
    static func demap(_ point: Complex, bits: Int, noiseVariance: Double, into soft: inout [Float]) {
        let axisBits = bits / 2
        let scale = scale(bits: bits)
        // Max-log LLR of a bit is 2 s / σ² in level units (levels 2 apart), σ² per axis.
        let perAxis = max(noiseVariance / 2 / (scale * scale), 1e-6)
        let weight = 2 / perAxis
        for axis in [point.re / scale, point.im / scale] {
            var value = axis
            for bit in 0..<axisBits {
                if bit > 0 { value = Double(1 << (axisBits - bit)) - abs(value) }
                soft.append(Float(max(-50, min(50, value * weight))))
            }
        }
    }
}
