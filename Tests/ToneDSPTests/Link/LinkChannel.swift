import Foundation
import ToneTestSupport
@testable import ToneDSP

/// A link made of arithmetic: the periodic probe read at `n − delay(n)`
/// through a 64-tap Blackman-windowed sinc (band-limited, so fractional
/// delays and drifting clocks are exact to about −90 dB in the probe's band),
/// scaled, with seeded noise and zeroed stretches (dropouts).
enum LinkChannel {
    static func render(_ probe: LinkProbe, frames: Int, gain: Double = 1, noiseDBFS: Double = -100,
                       seed: UInt64 = 1, delay: (Int) -> Double,
                       dropouts: [Range<Int>] = []) -> [Float] {
        let period = probe.periodFrames
        let halfTaps = 32
        var random = SeededRandom(seed: seed)
        let noise = Decibels.amplitude(dbfs: noiseDBFS)
        var out = [Float](repeating: 0, count: frames)
        for n in 0..<frames {
            let position = Double(n) - delay(n)
            let base = Int(position.rounded(.down))
            let fraction = position - Double(base)
            var sum = 0.0
            for tap in (-halfTaps + 1)...halfTaps {
                let x = Double(tap) - fraction
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let w = 0.42 + 0.5 * cos(Double.pi * x / Double(halfTaps)) + 0.08 * cos(2 * Double.pi * x / Double(halfTaps))
                var index = (base + tap) % period
                if index < 0 { index += period }
                sum += Double(probe.samples[index]) * sinc * w
            }
            out[n] = Float(gain * sum + noise * random.gaussian())
        }
        for range in dropouts { for n in range where n < frames { out[n] = 0 } }
        return out
    }

    /// Feeds `stream` to `analyzer` in JACK-sized pieces from stream frame 0.
    static func feed(_ analyzer: LinkAnalyzer, _ stream: [Float], periodFrames: Int = 256) {
        stream.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let count = min(periodFrames, all.count - start)
                analyzer.append(UnsafeBufferPointer(rebasing: all[start..<(start + count)]), startFrame: start)
                start += count
            }
        }
        analyzer.finish()
    }
}
