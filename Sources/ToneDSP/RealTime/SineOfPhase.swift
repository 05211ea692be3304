/// Sine of a 64-bit fixed-point phase, in pure Swift.
///
/// The real-time path may not call libm (`@_noLocks` rejects unknown calls),
/// so the oscillator evaluates its own sine: the top two bits of the phase pick
/// the quadrant, the rest is a point in `[0, π/2)` that is centred to
/// `π/4 + x` with `|x| ≤ π/4`, where Taylor series to degree 17/18 are exact to
/// double precision (the next term is below 1e-19).
///
/// - Parameter phase: one full cycle is 2^64 (wrapping arithmetic is exact).
/// - Returns: `sin(2π · phase / 2^64)`.
@inlinable @_noLocks
public func sineOfPhase(_ phase: UInt64) -> Double {
    let quadrant = phase >> 62
    let withinQuadrant = phase & ((1 << 62) - 1)
    // safe: Double(UInt64) rounds to 53 bits, 1e-16 of a quadrant.
    let fraction = Double(withinQuadrant) * 0x1p-62          // [0, 1)
    let x = (fraction - 0.5) * (Double.pi / 2)                 // [-π/4, π/4)
    let x2 = x * x
    // Horner forms of the Taylor series of sin x and cos x.
    var s = 1.0 / 355_687_428_096_000.0                        // 1/17!
    s = s * x2 - 1.0 / 1_307_674_368_000.0                     // 1/15!
    s = s * x2 + 1.0 / 6_227_020_800.0                         // 1/13!
    s = s * x2 - 1.0 / 39_916_800.0                            // 1/11!
    s = s * x2 + 1.0 / 362_880.0                               // 1/9!
    s = s * x2 - 1.0 / 5_040.0
    s = s * x2 + 1.0 / 120.0
    s = s * x2 - 1.0 / 6.0
    let sinX = x + x * x2 * s
    var c = 1.0 / 6_402_373_705_728_000.0                      // 1/18!
    c = c * x2 - 1.0 / 20_922_789_888_000.0                    // 1/16!
    c = c * x2 + 1.0 / 87_178_291_200.0                        // 1/14!
    c = c * x2 - 1.0 / 479_001_600.0                           // 1/12!
    c = c * x2 + 1.0 / 3_628_800.0                             // 1/10!
    c = c * x2 - 1.0 / 40_320.0
    c = c * x2 + 1.0 / 720.0
    c = c * x2 - 1.0 / 24.0
    c = c * x2 + 1.0 / 2.0
    let cosX = 1.0 - x2 * c
    let halfSqrt2 = 0.707_106_781_186_547_524_4
    let sinPhi = (sinX + cosX) * halfSqrt2                     // sin(π/4 + x)
    let cosPhi = (cosX - sinX) * halfSqrt2                     // cos(π/4 + x)
    switch quadrant {
    case 0: return sinPhi
    case 1: return cosPhi
    case 2: return -sinPhi
    default: return -cosPhi
    }
}
