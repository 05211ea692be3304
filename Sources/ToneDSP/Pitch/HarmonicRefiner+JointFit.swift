#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The joint fit of the loud partials under Hann

extension HarmonicRefiner {
    /// The energy of the window-weighted least-squares fit of the loud
    /// partials (`loudOrders`, with their S0 and its derivatives in
    /// `loudSums`) and a constant to the frame, at the fundamental
    /// `omega + offset`, in |S0|²'s units (W(0)²/4 per unit amplitude
    /// squared): what the partials add to the constant's fit alone. Each
    /// partial's S0 there is its Taylor series from `omega`. With t about the
    /// frame's centre and the window symmetric, the cosines and the constant
    /// are one set of normal equations and the sines another; their Gram
    /// matrices come from the window's transform W:
    /// Σw·cos(h·ωt)·cos(h′·ωt) = (W((h − h′)ω) + W((h + h′)ω))/2, the sines'
    /// with a minus, Σw·cos(h·ωt) = W(hω). One partial alone, with no
    /// constant and W(2hω) = 0, gives |S0|².
    func jointFitEnergy(omega centre: Double, offset: Double, loud: Int, constant: Double) -> Double {
        let omega = centre + offset
        let w0 = hannSum
        // W at every multiple of ω the matrices need (the orders are whole
        // numbers: their sums and differences reach twice the highest).
        let highest = Int(loudOrders[loud - 1])
        for multiple in 0...(2 * highest) {
            transforms[multiple] = multiple == 0 ? w0
                : hannTransform.at(Double(multiple) * omega)
        }
        func window(_ multiple: Double) -> Double { transforms[Int(multiple)] }
        let even = loud + 1
        let gram = fitScratch, right = fitScratch + even * even
        // The cosines and the constant.
        gram[0] = w0
        right[0] = constant
        for i in 0..<loud {
            let h = loudOrders[i]
            let sums = loudSums + 6 * i
            right[i + 1] = sums[0] + offset * h * sums[1] + 0.5 * offset * offset * h * h * sums[2]
            gram[i + 1] = window(h)
            gram[(i + 1) * even] = gram[i + 1]
            for j in 0...i {
                let other = loudOrders[j]
                let value = (window(abs(h - other)) + window(h + other)) / 2
                gram[(i + 1) * even + j + 1] = value
                gram[(j + 1) * even + i + 1] = value
            }
        }
        let evenEnergy = Self.quadraticForm(gram, right, even) - constant * constant / w0
        // The sines.
        for i in 0..<loud {
            let h = loudOrders[i]
            let sums = loudSums + 6 * i
            right[i] = sums[3] + offset * h * sums[4] + 0.5 * offset * offset * h * h * sums[5]
            for j in 0...i {
                let other = loudOrders[j]
                let value = (window(abs(h - other)) - window(h + other)) / 2
                gram[i * loud + j] = value
                gram[j * loud + i] = value
            }
        }
        let oddEnergy = Self.quadraticForm(gram, right, loud)
        return w0 / 2 * (evenEnergy + oddEnergy)
    }

    /// rᵀ·G⁻¹·r for the symmetric positive definite n × n `gram` (row-major;
    /// both are overwritten), by Cholesky: ‖L⁻¹r‖² with G = L·Lᵀ.
    static func quadraticForm(_ gram: UnsafeMutablePointer<Double>, _ right: UnsafeMutablePointer<Double>,
                              _ n: Int) -> Double {
        for j in 0..<n {
            var diagonal = gram[j * n + j]
            for k in 0..<j { diagonal -= gram[j * n + k] * gram[j * n + k] }
            guard diagonal > 0 else { return .nan }
            let root = diagonal.squareRoot()
            gram[j * n + j] = root
            for i in (j + 1)..<n {
                var value = gram[i * n + j]
                for k in 0..<j { value -= gram[i * n + k] * gram[j * n + k] }
                gram[i * n + j] = value / root
            }
        }
        var energy = 0.0
        for i in 0..<n {
            var value = right[i]
            for k in 0..<i { value -= gram[i * n + k] * right[k] }
            right[i] = value / gram[i * n + i]
            energy += right[i] * right[i]
        }
        return energy
    }
}
