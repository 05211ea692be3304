import Foundation
import ToneDSP
import ToneTestSupport

/// Offline stand-ins for the tools under test: each maps what `measure`
/// plays to what it would record (a recording as long as the measurement's).
enum SyntheticChain {
    /// A delay of `frames` (fractional allowed) by a Blackman-windowed sinc of
    /// `halfLength * 2 + 1` taps, times `gain`.
    static func delay(_ x: [Float], frames: Double, gain: Double = 1, halfLength: Int = 128,
                      outputCount: Int) -> [Float] {
        let whole = Int(frames.rounded(.down))
        let fraction = frames - Double(whole)
        let taps = (-halfLength...halfLength).map { m -> Double in
            let t = Double(m) - fraction
            let sinc = t == 0 ? 1 : sin(Double.pi * t) / (Double.pi * t)
            let position = (t + Double(halfLength) + 1) / Double(2 * halfLength + 2)
            let blackman = 0.42 - 0.5 * cos(2 * Double.pi * position) + 0.08 * cos(4 * Double.pi * position)
            return gain * sinc * blackman
        }
        var y = [Float](repeating: 0, count: outputCount)
        let tapCount = taps.count, inputCount = x.count
        x.withUnsafeBufferPointer { x in
            taps.withUnsafeBufferPointer { taps in
                y.withUnsafeMutableBufferPointer { y in
                    // y[n] = Σ_m taps[m + L]·x[n − whole − m], m = −L…L (plain loops: debug builds stay quick).
                    var n = 0
                    while n < outputCount {
                        var sum = 0.0
                        var j = 0
                        while j < tapCount {
                            let source = n - whole - (j - halfLength)
                            if source >= 0 && source < inputCount { sum += taps[j] * Double(x[source]) }
                            j += 1
                        }
                        y[n] = Float(sum)
                        n += 1
                    }
                }
            }
        }
        return y
    }

    /// A whole-frame delay.
    static func integerDelay(_ x: [Float], frames: Int, outputCount: Int) -> [Float] {
        (0..<outputCount).map { n in n - frames >= 0 && n - frames < x.count ? x[n - frames] : 0 }
    }

    /// `y[n] = (1 − a)·x[n] + a·y[n−1]`.
    static func onePoleLowPass(_ x: [Float], a: Double) -> [Float] {
        var state = 0.0
        return x.map { value in
            state = (1 - a) * Double(value) + a * state
            return Float(state)
        }
    }

    /// |H| in dB of `onePoleLowPass` at `frequencyHz`.
    static func onePoleResponseDB(a: Double, frequencyHz: Double, sampleRateHz: Double) -> Double {
        let w = 2 * Double.pi * frequencyHz / sampleRateHz
        let re = 1 - a * cos(w), im = a * sin(w)
        return 20 * log10((1 - a) / (re * re + im * im).squareRoot())
    }

    /// `x + c·x³` (a soft, odd-order non-linearity).
    static func cubic(_ x: [Float], c: Double) -> [Float] {
        x.map { Float(Double($0) + c * Double($0) * Double($0) * Double($0)) }
    }

    /// `x` plus seeded Gaussian noise of RMS `rms`.
    static func addNoise(_ x: [Float], rms: Double, seed: UInt64) -> [Float] {
        var random = SeededRandom(seed: seed)
        return x.map { Float(Double($0) + rms * random.gaussian()) }
    }

    /// Zero-pads (or cuts) to `count`.
    static func padded(_ x: [Float], to count: Int) -> [Float] {
        count <= x.count ? Array(x.prefix(count)) : x + [Float](repeating: 0, count: count - x.count)
    }
}
