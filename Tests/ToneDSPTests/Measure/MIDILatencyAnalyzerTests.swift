import Foundation
import Testing
import ToneTestSupport
@testable import ToneDSP

@Suite("MIDI-to-audio latency: onsets to a fraction of a frame")
struct MIDILatencyAnalyzerTests {
    static func signal(notes: Int = 24) -> MeasurementSignal {
        var plan = ChainAnalyzerTests.signal().plan
        plan.midiNotes = notes
        return MeasurementSignal(plan: plan)
    }

    /// A recording that answers note k with `burst` `latencies[k]` frames after its note-on (nil: no answer),
    /// over seeded white noise of RMS `noiseRMS`, plus `offset` everywhere.
    static func recording(_ signal: MeasurementSignal, latencies: [Double?], burst: RampBurst = RampBurst(),
                          noiseRMS: Double = 1e-5, offset: Float = 0, seed: UInt64 = 16) -> [Float] {
        var random = SeededRandom(seed: seed)
        var x = (0..<signal.recordingFrames).map { _ in Float(noiseRMS * random.gaussian()) }
        for (noteOn, latency) in zip(signal.midiNoteOnFrames, latencies) {
            guard let latency else { continue }
            let onset = Double(noteOn) + latency
            for n in Int(onset.rounded(.down))...Int((onset + burst.lengthFrames).rounded(.up)) where n < x.count {
                x[n] += burst.value(framesSinceOnset: Double(n) - onset)
            }
        }
        for n in x.indices { x[n] += offset }
        return x
    }

    static func analyze(_ signal: MeasurementSignal, _ recording: [Float]) throws -> MIDILatencyMeasurement {
        try recording.withUnsafeBufferPointer { try MIDILatencyAnalyzer.analyze(signal, recording: $0) }
    }

    @Test("a fixed latency, integer or fractional, read within 0.1 frame on every note (noise −100 dBFS, burst −12 dBFS)",
          arguments: [0.0, 1.0, 37.25, 256.5, 300.875, 2047.9])
    func fixedLatency(latencyFrames: Double) throws {
        let signal = Self.signal()
        let m = try Self.analyze(signal, Self.recording(signal, latencies: Array(repeating: latencyFrames, count: 24)))
        #expect(m.notesAnswered == 24)
        let worst = m.sortedFrames.map { abs($0 - latencyFrames) }.max() ?? .infinity
        report(String(format: "latency %.3f frames: worst note off by %.5f frames", latencyFrames, worst))
        #expect(worst < 0.1)
        #expect(abs((m.medianFrames ?? 0) - latencyFrames) < 0.1)
    }

    @Test("jitter: latencies that step through a period read back in order; min, median, p99, max and deviation agree")
    func steppedLatencies() throws {
        let signal = Self.signal(notes: 40)
        // 100 + 6.4·k: the position of a note in a 256-frame period, as a synth that waits for its period start sees it.
        let truth = (0..<40).map { 100 + 6.4 * Double($0) }
        let m = try Self.analyze(signal, Self.recording(signal, latencies: truth, seed: 7))
        let worst = zip(m.latenciesFrames, truth).map { abs(($0 ?? .infinity) - $1) }.max() ?? .infinity
        #expect(worst < 0.1, "worst note off by \(worst) frames")
        let sorted = truth.sorted()
        #expect(abs((m.minimumFrames ?? 0) - sorted[0]) < 0.1)
        #expect(abs((m.maximumFrames ?? 0) - sorted[39]) < 0.1)
        #expect(abs((m.p99Frames ?? 0) - sorted[39]) < 0.1)   // nearest rank: the 40th of 40
        #expect(abs((m.medianFrames ?? 0) - (sorted[19] + sorted[20]) / 2) < 0.1)
        let mean = truth.reduce(0, +) / 40
        let deviation = (truth.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 39).squareRoot()
        #expect(abs((m.standardDeviationFrames ?? 0) - deviation) < 0.05)
    }

    @Test("a note without an answer is counted as such; the others are still read")
    func missingNotes() throws {
        let signal = Self.signal(notes: 8)
        var latencies: [Double?] = Array(repeating: 64.5, count: 8)
        latencies[3] = nil
        latencies[6] = nil
        let m = try Self.analyze(signal, Self.recording(signal, latencies: latencies))
        #expect(m.notesAnswered == 6 && m.notesSent == 8)
        #expect(m.latenciesFrames[3] == nil && m.latenciesFrames[6] == nil)
        #expect((m.sortedFrames.map { abs($0 - 64.5) }.max() ?? 1) < 0.1)
    }

    @Test("silence: no note answered, no figures")
    func silence() throws {
        let signal = Self.signal(notes: 4)
        let m = try Self.analyze(signal, [Float](repeating: 0, count: signal.recordingFrames))
        #expect(m.notesAnswered == 0 && m.medianFrames == nil && m.standardDeviationFrames == nil)
    }

    @Test("an answer on top of a steady level (a previous note still sounding) is read from that level")
    func onTopOfABaseline() throws {
        let signal = Self.signal(notes: 6)
        let m = try Self.analyze(signal, Self.recording(signal, latencies: Array(repeating: 12.3, count: 6), offset: 0.05))
        #expect(m.notesAnswered == 6)
        #expect((m.sortedFrames.map { abs($0 - 12.3) }.max() ?? 1) < 0.1)
    }

    @Test("the MIDI messages: a note-on per spacing after the audio's tail, its note-off half a spacing later")
    func schedule() {
        let signal = Self.signal(notes: 3)
        let messages = signal.midiMessages
        #expect(messages.count == 6)
        #expect(signal.midiStartFrame == signal.imdStartFrame + 2 * signal.imdFrames + signal.maxLatencyFrames)
        #expect(messages.map(\.frame) == [0, 6000, 12000, 18000, 24000, 30000].map { signal.midiStartFrame + $0 })
        #expect(messages.map(\.status) == [0x90, 0x80, 0x90, 0x80, 0x90, 0x80])
        #expect(signal.crosstalkStartFrame == signal.midiStartFrame + 3 * 12000)
    }
}
