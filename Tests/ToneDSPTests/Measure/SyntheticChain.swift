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

    /// `Σ cₙ·xⁿ` (n from 1), memoryless: known harmonics of every order.
    static func polynomial(_ x: [Float], _ coefficients: [Double]) -> [Float] {
        x.map { value in
            let v = Double(value)
            var sum = 0.0, power = 1.0
            for c in coefficients {
                power *= v
                sum += c * power
            }
            return Float(sum)
        }
    }

    /// A biquad `(b0 + b1 z⁻¹ + b2 z⁻²)/(1 + a1 z⁻¹ + a2 z⁻²)`, direct form I in double.
    struct Biquad {
        var b0, b1, b2, a1, a2: Double

        /// RBJ cookbook high-pass (Q 0.707: Butterworth, 12 dB per octave).
        static func highPass(frequencyHz: Double, sampleRateHz: Double, q: Double = 0.5.squareRoot()) -> Biquad {
            let w = 2 * Double.pi * frequencyHz / sampleRateHz
            let alpha = sin(w) / (2 * q), a0 = 1 + alpha
            return Biquad(b0: (1 + cos(w)) / 2 / a0, b1: -(1 + cos(w)) / a0, b2: (1 + cos(w)) / 2 / a0,
                          a1: -2 * cos(w) / a0, a2: (1 - alpha) / a0)
        }

        /// RBJ cookbook peaking EQ.
        static func peaking(frequencyHz: Double, gainDB: Double, q: Double, sampleRateHz: Double) -> Biquad {
            let a = pow(10, gainDB / 40), w = 2 * Double.pi * frequencyHz / sampleRateHz
            let alpha = sin(w) / (2 * q), a0 = 1 + alpha / a
            return Biquad(b0: (1 + alpha * a) / a0, b1: -2 * cos(w) / a0, b2: (1 - alpha * a) / a0,
                          a1: -2 * cos(w) / a0, a2: (1 - alpha / a) / a0)
        }

        func run(_ x: [Float]) -> [Float] {
            var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
            return x.map { value in
                let x0 = Double(value)
                let y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
                x2 = x1; x1 = x0; y2 = y1; y1 = y0
                return Float(y0)
            }
        }

        /// H(e^{iω}) at `frequencyHz`.
        func response(frequencyHz: Double, sampleRateHz: Double) -> (re: Double, im: Double) {
            let w = 2 * Double.pi * frequencyHz / sampleRateHz
            let nr = b0 + b1 * cos(w) + b2 * cos(2 * w), ni = -(b1 * sin(w) + b2 * sin(2 * w))
            let dr = 1 + a1 * cos(w) + a2 * cos(2 * w), di = -(a1 * sin(w) + a2 * sin(2 * w))
            let d = dr * dr + di * di
            return ((nr * dr + ni * di) / d, (ni * dr - nr * di) / d)
        }

        /// Group delay in frames at `frequencyHz` (numerical derivative of the unwrapped phase).
        func groupDelayFrames(frequencyHz: Double, sampleRateHz: Double) -> Double {
            let h = 1e-3
            let a = response(frequencyHz: frequencyHz - h, sampleRateHz: sampleRateHz)
            let b = response(frequencyHz: frequencyHz + h, sampleRateHz: sampleRateHz)
            let dphase = atan2(b.im * a.re - b.re * a.im, b.re * a.re + b.im * a.im)
            return -dphase / (2 * Double.pi * 2 * h / sampleRateHz)
        }
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
