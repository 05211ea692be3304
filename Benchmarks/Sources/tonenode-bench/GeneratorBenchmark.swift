import ToneDSP

/// One period of the tone generator, behind an opaque call like the JACK callback's.
@inline(never)
func renderGenerator(_ generator: inout ToneGenerator, into output: UnsafeMutablePointer<Float>, frames: Int) {
    generator.render(into: output, frames: frames)
}

/// The generator playing a beep or a sweep (over a muted tone, in the hold:
/// the second sine plus the crossfade), against the plain oscillator alone.
enum GeneratorBenchmark {
    enum Shot { case beep, sweep }

    static func run(_ kind: Shot, repetitions: Int, targetSeconds: Double) -> Comparison {
        let frames = RenderBenchmark.periodFrames
        let rate = RenderBenchmark.sampleRateHz
        let output = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        output.initialize(repeating: 0, count: frames)
        defer { output.deallocate() }
        func makeGenerator() -> ToneGenerator {
            var generator = ToneGenerator(sampleRateHz: rate, frequencyHz: 1000, levelAmplitude: 0.5, muted: true,
                                          rampFrames: 480)
            // An hour long: every timed period is in the hold, never past the end.
            let shot = switch kind {
            case .beep: ToneShot.beep(frequencyHz: 1000, seconds: 3600, amplitude: 0.5, sampleRateHz: rate)
            case .sweep: ToneShot.sweep(startHz: 20, endHz: 20_000, seconds: 3600, amplitude: 0.5, sampleRateHz: rate)
            }
            if let shot { generator.apply(.shot(shot)) }
            var warm = [Float](repeating: 0, count: 1024)
            warm.withUnsafeMutableBufferPointer { generator.render(into: $0.baseAddress!, frames: 1024) }
            return generator
        }
        return compare(
            repetitions: repetitions, targetSeconds: targetSeconds,
            toneNode: { periods in
                var generator = makeGenerator()
                return stopwatch {
                    var checksum: Float = 0
                    for period in 0..<periods {
                        renderGenerator(&generator, into: output, frames: frames)
                        checksum += output[period & (frames - 1)]
                    }
                    return Double(checksum)
                }
            },
            reference: { periods in
                var oscillator = Oscillator()
                oscillator.reset(increment: Oscillator.increment(frequencyHz: 1000, sampleRateHz: rate), amplitude: 0.5)
                return stopwatch {
                    var checksum: Float = 0
                    for period in 0..<periods {
                        renderOscillator(&oscillator, into: output, frames: frames)
                        checksum += output[period & (frames - 1)]
                    }
                    return Double(checksum)
                }
            })
    }
}
