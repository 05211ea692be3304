/// `count` samples of `gain · sin(2π (phase + k·step) / 2^64)`, k = 0 ..< count,
/// written to `output` as `Float`: the oscillator's steady part.
///
/// Evaluating `sineOfPhase` for every sample costs two degree-17/18
/// polynomials a sample, the largest share of a node's process callback. Here
/// four interleaved rotations (samples k, k+1, k+2, k+3, each turned by 4·step
/// a time) make the same samples with four multiplications and two additions
/// each, and are started again exactly from `sineOfPhase` every
/// `anchorFrames`, so rounding never builds up past about 64 rotations
/// (below 1e-14, where a `Float` sample keeps 6e-8). Every sample's phase is
/// still the exact 64-bit one; blocks shorter than 16 frames take the direct way.
@inlinable @inline(__always) @_noLocks
public func renderSineRun(into output: UnsafeMutablePointer<Float>, count: Int,
                          phase: UInt64, step: UInt64, gain: Double) {
    let quarter: UInt64 = 1 << 62                   // sin(φ + π/2) = cos φ
    let anchorFrames = 256
    var start = 0
    while count - start >= 16 {
        let chunk = min(anchorFrames, (count - start) & ~3)
        let first = phase &+ step &* UInt64(start)
        var s0 = sineOfPhase(first), c0 = sineOfPhase(first &+ quarter)
        let second = first &+ step, third = second &+ step, fourth = third &+ step
        var s1 = sineOfPhase(second), c1 = sineOfPhase(second &+ quarter)
        var s2 = sineOfPhase(third), c2 = sineOfPhase(third &+ quarter)
        var s3 = sineOfPhase(fourth), c3 = sineOfPhase(fourth &+ quarter)
        let turn = step &* 4
        let sinTurn = sineOfPhase(turn), cosTurn = sineOfPhase(turn &+ quarter)
        let out = output + start
        var index = 0
        while index < chunk {
            out[index] = Float(gain * s0)
            out[index + 1] = Float(gain * s1)
            out[index + 2] = Float(gain * s2)
            out[index + 3] = Float(gain * s3)
            (s0, c0) = (s0 * cosTurn + c0 * sinTurn, c0 * cosTurn - s0 * sinTurn)
            (s1, c1) = (s1 * cosTurn + c1 * sinTurn, c1 * cosTurn - s1 * sinTurn)
            (s2, c2) = (s2 * cosTurn + c2 * sinTurn, c2 * cosTurn - s2 * sinTurn)
            (s3, c3) = (s3 * cosTurn + c3 * sinTurn, c3 * cosTurn - s3 * sinTurn)
            index += 4
        }
        start += chunk
    }
    while start < count {
        output[start] = Float(gain * sineOfPhase(phase &+ step &* UInt64(start)))
        start += 1
    }
}
