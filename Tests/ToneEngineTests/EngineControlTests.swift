import Foundation
import Synchronization
import Testing
import ToneCore
import ToneDSP
@testable import ToneEngine
import ToneJack

/// Commands from two control threads (stdin and OSC) into a rendering engine,
/// with no JACK server: the queue is single-producer, so `send` serialises
/// its callers; the audio side never waits. Also run under ThreadSanitizer
/// (`scripts/sanitize`).
@Suite("Engine: controls from two threads while it renders")
struct EngineControlTests {
    @Test("every command sent is applied exactly once; the output stays finite and within the level")
    func twoProducers() {
        let rate = 48_000.0
        let engine = Engine(sampleRateHz: rate, frequencyHz: 1000, amplitude: 0.25)
        let perProducer = 20_000
        final class Shared: Sendable {
            let producersDone = Atomic<Int>(0)
            let peakBits = Atomic<UInt32>(0)
            let sent = Atomic<Int>(0)
        }
        let shared = Shared()
        let producer: @Sendable (Double) -> Void = { baseHz in
            for index in 0..<perProducer {
                let command: GeneratorCommand = index.isMultiple(of: 2)
                    ? .tone(frequencyHz: baseHz + Double(index % 1000), sampleRateHz: rate)
                    : .level(amplitude: 0.25 * Double(index % 7) / 6)
                while !engine.send(command) { sched_yield() }
                shared.sent.wrappingAdd(1, ordering: .relaxed)
            }
            shared.producersDone.wrappingAdd(1, ordering: .releasing)
        }
        let audio: @Sendable () -> Void = {
            let frames = 64
            let input = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            let output = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            input.initialize(repeating: 0, count: frames)
            defer { input.deallocate(); output.deallocate() }
            var peak: Float = 0
            while shared.producersDone.load(ordering: .acquiring) < 2
                    || engine.appliedCommands.load(ordering: .relaxed) < 2 * perProducer {
                engine.render(input: input, output: output, frames: frames)
                for index in 0..<frames { peak = max(peak, output[index].isFinite ? abs(output[index]) : .infinity) }
                // Keep the capture ring from filling (nobody drains it here).
                var scratch = [Float](repeating: 0, count: frames)
                _ = scratch.withUnsafeMutableBufferPointer { engine.capture.read(into: $0.baseAddress!, maxCount: frames) }
            }
            shared.peakBits.store(peak.bitPattern, ordering: .relaxed)
        }
        runOnThreads([{ producer(200) }, { producer(5000) }, audio])
        #expect(shared.sent.load(ordering: .relaxed) == 2 * perProducer)
        #expect(engine.appliedCommands.load(ordering: .relaxed) == 2 * perProducer)
        let peak = Float(bitPattern: shared.peakBits.load(ordering: .relaxed))
        #expect(peak.isFinite && peak <= 0.2501)
    }
}

/// Runs each body on its own `Thread` and returns when all have finished.
private func runOnThreads(_ bodies: [@Sendable () -> Void]) {
    let finished = DispatchSemaphore(value: 0)
    for body in bodies {
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.start()
    }
    for _ in bodies { finished.wait() }
}
