import Foundation
import Testing
import ToneCore
import ToneDSP
@testable import ToneEngine
import ToneJack

/// A soak: many seconds of audio through the node's real-time half (`Engine.render`,
/// the same call the JACK callback makes) and its capture ring, faster than real
/// time, with a new frequency every second.
///
/// CI runs `TONENODE_ENGINE_SOAK_SECONDS` (default 600: about 3 s) seconds of 48 kHz audio; the
/// hour-equivalent is `TONENODE_ENGINE_SOAK_SECONDS=3600 swift test --filter EngineSoakTests`.
/// No JACK server is involved. Memory and file descriptors are not checked
/// here (the unit tests run beside it in this process and move both); the
/// process-level `SoakTests` checks them on `tonenode run` itself.
@Suite("Engine soak: ten minutes of audio (an hour with TONENODE_ENGINE_SOAK_SECONDS=3600) through the RT half, a new frequency every second")
struct EngineSoakTests {
    static let sampleRateHz = 48_000.0
    static let periodFrames = 256
    static let fftSize = 4096

    /// A deterministic walk over 100 Hz…19.1 kHz (golden-ratio steps, no repeats).
    static func frequencyHz(second: Int) -> Double {
        let golden = 0.618_033_988_749_894_8
        let fraction = (Double(second) * golden).truncatingRemainder(dividingBy: 1)
        return (100 + 19_000 * fraction).rounded() + 0.25
    }

    @Test("every second reads its frequency to 1 ppb, nothing overflows, every frame is rendered")
    func soak() throws {
        let seconds = ProcessInfo.processInfo.environment["TONENODE_ENGINE_SOAK_SECONDS"].flatMap(Int.init) ?? 600
        #expect(seconds > 0)
        let rate = Self.sampleRateHz
        let framesPerSecond = Int(rate)
        let engine = Engine(sampleRateHz: rate, frequencyHz: Self.frequencyHz(second: 0), amplitude: 0.5)
        let estimator = try ToneEstimator(ToneEstimatorConfiguration(sampleRateHz: rate, fftSize: Self.fftSize),
                                          planning: .estimate)
        let period = UnsafeMutablePointer<Float>.allocate(capacity: Self.periodFrames)
        let silence = UnsafeMutablePointer<Float>.allocate(capacity: Self.periodFrames)
        let tail = UnsafeMutablePointer<Float>.allocate(capacity: framesPerSecond)
        defer { period.deallocate(); silence.deallocate(); tail.deallocate() }
        silence.initialize(repeating: 0, count: Self.periodFrames)

        var worstRelativeError = 0.0
        var missed = 0
        for second in 0..<seconds {
            let targetHz = Self.frequencyHz(second: second)
            engine.send(.tone(frequencyHz: targetHz, sampleRateHz: engine.sampleRateHz))
            var renderedThisSecond = 0
            var capturedThisSecond = 0
            while renderedThisSecond < framesPerSecond {
                let frames = min(Self.periodFrames, framesPerSecond - renderedThisSecond)
                // The output wired straight back to the input, as in a loopback.
                engine.render(input: period, output: period, frames: frames)
                renderedThisSecond += frames
                // Drain like the worker: the last fftSize frames of the second are kept.
                while true {
                    let (count, gap) = engine.capture.read(into: tail + capturedThisSecond,
                                                           maxCount: framesPerSecond - capturedThisSecond)
                    #expect(gap == nil)
                    if count == 0 { break }
                    capturedThisSecond += count
                }
            }
            // The last fftSize frames of the second: the 10 ms frequency ramp is long done.
            let window = UnsafeBufferPointer(start: tail + capturedThisSecond - Self.fftSize, count: Self.fftSize)
            let reading = estimator.estimate(window)
            if let readHz = reading.frequencyHz {
                worstRelativeError = max(worstRelativeError, abs(readHz - targetHz) / targetHz)
            } else {
                missed += 1
            }
        }
        print("soak: \(seconds) s of audio, worst relative frequency error \(worstRelativeError)")
        #expect(missed == 0)
        #expect(worstRelativeError <= 1e-9)
        #expect(engine.capture.overflowCount.load(ordering: .relaxed) == 0)
        #expect(engine.renderedFrames.load(ordering: .relaxed) == seconds * framesPerSecond)
    }
}
