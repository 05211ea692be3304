import Foundation
import ToneDSP

/// Cost of one pitch analysis on the live worker's path (`PitchDetector.estimate`), in process.
enum LiveCost {
    /// Median seconds per window over 9 repetitions, on a noisy E2-like harmonic frame.
    static func measure(sampleRateHz: Double, frameSize: Int) -> Double {
        guard let detector = try? PitchDetector(PitchDetectorConfiguration(sampleRateHz: sampleRateHz, frameSize: frameSize),
                                                planning: .measure) else { return .nan }
        Denormals.flushToZeroOnThisThread()
        var random = SplitMix(seed: 9)
        let frame: [Float] = (0..<frameSize).map { n in
            var x = 0.0
            for h in 1...12 { x += 0.2 / Double(h) * sin(2 * Double.pi * 82.41 * Double(h) * Double(n) / sampleRateHz + Double(h)) }
            return Float(x + 0.01 * random.gaussian())
        }
        var timings: [Double] = []
        let perRepetition = 200
        for _ in 0..<9 {
            let start = ContinuousClock.now
            var sink = 0.0
            frame.withUnsafeBufferPointer { buffer in
                for _ in 0..<perRepetition { sink += detector.estimate(buffer).frequencyHz ?? 0 }
            }
            let elapsed = ContinuousClock.now - start
            if sink.isNaN { print("") }
            timings.append(Double(elapsed.components.attoseconds) * 1e-18 / Double(perRepetition)
                           + Double(elapsed.components.seconds) / Double(perRepetition))
        }
        return timings.sorted()[timings.count / 2]
    }
}
