/// `2^x` in pure Swift, for the real-time path (MIDI notes and pitch bend),
/// which may not call libm (`@_noLocks` rejects unknown calls).
///
/// `x` is split into a whole part `n` and a fraction `f` in `[-0.5, 0.5]`;
/// `2^f = e^(f·ln 2)` comes from its Taylor series to degree 14 (the next term
/// is below 2e-19 for `|f·ln 2| ≤ 0.35`), and `2^n` is put straight into the
/// exponent bits. Relative error: a few ulps.
///
/// - Parameter x: an exponent in `-1000...1000` (values outside are clamped).
@inlinable @_noLocks
public func exponentOfTwo(_ x: Double) -> Double {
    guard x.isFinite else { return x > 0 ? .infinity : 0 }
    let clamped = min(1000, max(-1000, x))
    // Round half up (`rounded()` is rejected by @_noLocks): clamped + 1000.5 > 0.
    let whole = Double(Int(clamped + 1000.5) - 1000)
    let y = (clamped - whole) * 0.693_147_180_559_945_309_4   // ln 2
    var sum = 1.0 / 87_178_291_200.0                           // 1/14!
    sum = sum * y + 1.0 / 6_227_020_800.0                       // 1/13!
    sum = sum * y + 1.0 / 479_001_600.0
    sum = sum * y + 1.0 / 39_916_800.0
    sum = sum * y + 1.0 / 3_628_800.0
    sum = sum * y + 1.0 / 362_880.0
    sum = sum * y + 1.0 / 40_320.0
    sum = sum * y + 1.0 / 5_040.0
    sum = sum * y + 1.0 / 720.0
    sum = sum * y + 1.0 / 120.0
    sum = sum * y + 1.0 / 24.0
    sum = sum * y + 1.0 / 6.0
    sum = sum * y + 0.5
    sum = sum * y + 1.0
    sum = sum * y + 1.0
    // safe: |whole| ≤ 1000 stays inside Double's exponent range (−1022…1023).
    let scale = Double(bitPattern: UInt64(1023 + Int(whole)) << 52)
    return sum * scale
}
