import Foundation

/// A `JackPeer` behaviour: a memoryless polynomial `y = Σ cₙ·xⁿ` (n from 1,
/// in double precision), so the harmonics a sine comes back with are known
/// to any order (`measure --what harmonics` is checked against it).
public final class Polynomial: @unchecked Sendable {
    // @unchecked Sendable: set up before the peer activates; afterwards only
    // the JACK thread reads it (one peer per instance).
    private let coefficients: UnsafeMutablePointer<Double>
    private let count: Int

    public init(_ coefficients: [Double]) {
        count = coefficients.count
        self.coefficients = .allocate(capacity: max(1, count))
        for (index, c) in coefficients.enumerated() { self.coefficients[index] = c }
    }

    deinit { coefficients.deallocate() }

    /// Audio input 0 through the polynomial to audio output 0. JACK thread only.
    public func process(_ cycle: JackPeer.Cycle) {
        guard let input = cycle.audioIn(0), let output = cycle.audioOut(0) else { return }
        for n in 0..<cycle.frames {
            let x = Double(input[n])
            var sum = 0.0, power = 1.0
            for index in 0..<count {
                power *= x
                sum += coefficients[index] * power
            }
            output[n] = Float(sum)
        }
    }
}
