#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ToneDSP

/// The textbook tone generator that ToneNode's oscillator replaces: a Double
/// phase in radians, libm `sin` per sample, wrapped once per cycle.
struct ReferenceTone {
    var phaseRadians = 0.0
    let radiansPerSample: Double
    let amplitude: Double

    init(frequencyHz: Double, sampleRateHz: Double, amplitude: Double) {
        radiansPerSample = 2 * Double.pi * frequencyHz / sampleRateHz
        self.amplitude = amplitude
    }

    /// One period, the way the C original does it.
    @inline(never)
    mutating func render(into output: UnsafeMutablePointer<Float>, frames: Int) {
        let twoPi = 2 * Double.pi
        var phase = phaseRadians
        for index in 0..<frames {
            output[index] = Float(amplitude * sin(phase))
            phase += radiansPerSample
            if phase >= twoPi { phase -= twoPi }
        }
        phaseRadians = phase
    }
}

/// One period of ToneNode's oscillator, behind the same kind of opaque call
/// as the reference (the JACK callback also calls it once per period).
@inline(never)
func renderOscillator(_ oscillator: inout Oscillator, into output: UnsafeMutablePointer<Float>, frames: Int) {
    oscillator.render(into: output, frames: frames)
}

/// Steady 1 kHz tone at 48 kHz, rendered period after period into one buffer.
struct RenderBenchmark {
    static let periodFrames = 256
    static let sampleRateHz = 48_000.0
    static let frequencyHz = 1_000.0
    static let amplitude = 0.5

    /// Renders 1000 periods with both, the ToneNode one into its own buffer,
    /// and returns the largest sample difference (they play the same tone).
    static func largestDifference() -> Float {
        var oscillator = makeOscillator()
        var reference = makeReference()
        let a = UnsafeMutablePointer<Float>.allocate(capacity: periodFrames)
        let b = UnsafeMutablePointer<Float>.allocate(capacity: periodFrames)
        defer { a.deallocate(); b.deallocate() }
        var largest: Float = 0
        for _ in 0..<1_000 {
            renderOscillator(&oscillator, into: a, frames: periodFrames)
            reference.render(into: b, frames: periodFrames)
            for index in 0..<periodFrames { largest = max(largest, abs(a[index] - b[index])) }
        }
        return largest
    }

    /// Seconds per period, ToneNode against the reference.
    static func run(repetitions: Int, targetSeconds: Double) -> Comparison {
        var oscillator = makeOscillator()
        var reference = makeReference()
        // One buffer for both, as the JACK port buffer would be.
        let output = UnsafeMutablePointer<Float>.allocate(capacity: periodFrames)
        output.initialize(repeating: 0, count: periodFrames)
        defer { output.deallocate() }
        // After each period one sample (a different one each time) joins a
        // checksum: cheap enough not to blur the comparison, and every
        // period's output is observable, so none of it can be optimised away.
        return compare(
            repetitions: repetitions, targetSeconds: targetSeconds,
            toneNode: { periods in
                stopwatch {
                    var checksum: Float = 0
                    for period in 0..<periods {
                        renderOscillator(&oscillator, into: output, frames: periodFrames)
                        checksum += output[period & (periodFrames - 1)]
                    }
                    return Double(checksum)
                }
            },
            reference: { periods in
                stopwatch {
                    var checksum: Float = 0
                    for period in 0..<periods {
                        reference.render(into: output, frames: periodFrames)
                        checksum += output[period & (periodFrames - 1)]
                    }
                    return Double(checksum)
                }
            })
    }

    private static func makeOscillator() -> Oscillator {
        var oscillator = Oscillator()
        oscillator.reset(increment: Oscillator.increment(frequencyHz: frequencyHz, sampleRateHz: sampleRateHz),
                         amplitude: amplitude)
        return oscillator
    }

    private static func makeReference() -> ReferenceTone {
        ReferenceTone(frequencyHz: frequencyHz, sampleRateHz: sampleRateHz, amplitude: amplitude)
    }
}
