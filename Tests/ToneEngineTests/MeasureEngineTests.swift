import Testing
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

/// The measure engine's render, driven by hand (no JACK): what JACK does in
/// a direct loop is hand the same buffer to `in` and `out`.
@Suite("MeasureEngine render")
struct MeasureEngineTests {
    @Test("a direct loop (one buffer for in and out) records the stimulus one period late", arguments: [64, 256, 1000])
    func directLoop(periodFrames: Int) {
        let stimulus = (0..<5000).map { Float($0 % 97) - 48 }
        let engine = MeasureEngine(stimulus: stimulus, recordingFrames: 6000)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: periodFrames)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 7, count: periodFrames)
        // Before arm(): silence out, nothing recorded.
        engine.render(input: buffer, output: buffer, frames: periodFrames)
        #expect((0..<periodFrames).allSatisfy { buffer[$0] == 0 })
        #expect(engine.framesRecorded == 0)
        engine.arm()
        var cycles = 0
        while !engine.isFinished && cycles < 1000 {
            engine.render(input: buffer, output: buffer, frames: periodFrames)
            cycles += 1
        }
        #expect(engine.isFinished)
        #expect(engine.framesRecorded == 6000)
        engine.withRecording { recording in
            // Frame n of the recording is what left `out` one period earlier (the first period: the silence before arming).
            for n in 0..<6000 {
                let expected: Float = n < periodFrames ? 0 : (n - periodFrames < stimulus.count ? stimulus[n - periodFrames] : 0)
                if recording[n] != expected {
                    Issue.record("frame \(n): \(recording[n]) instead of \(expected)")
                    break
                }
            }
        }
        // After the recording is full: silence out, nothing more recorded.
        engine.render(input: buffer, output: buffer, frames: periodFrames)
        #expect((0..<periodFrames).allSatisfy { buffer[$0] == 0 })
        #expect(engine.framesRecorded == 6000)
    }

    @Test("two channels, each in a direct loop: each recording is its own stimulus one period late")
    func twoChannels() {
        let periodFrames = 128
        let stimuli = [(0..<3000).map { Float($0 % 89) }, (0..<3000).map { -Float($0 % 53) }]
        let engine = MeasureEngine(stimuli: stimuli, recordingFrames: 3500)
        #expect(engine.channels == 2)
        let buffers = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: periodFrames) }
        defer { buffers.forEach { $0.deallocate() } }
        buffers.forEach { $0.initialize(repeating: 0, count: periodFrames) }
        let inputs: [UnsafePointer<Float>?] = buffers.map { UnsafePointer($0) }
        let outputs: [UnsafeMutablePointer<Float>?] = buffers
        engine.arm()
        var cycles = 0
        while !engine.isFinished && cycles < 1000 {
            inputs.withUnsafeBufferPointer { i in
                outputs.withUnsafeBufferPointer { o in
                    _ = engine.render(inputs: i.baseAddress!, outputs: o.baseAddress!, channels: 2, frames: periodFrames)
                }
            }
            cycles += 1
        }
        #expect(engine.isFinished)
        for channel in 0..<2 {
            engine.withRecording(channel: channel) { recording in
                let wrong = (0..<3500).first { n in
                    let expected: Float = n < periodFrames ? 0 : (n - periodFrames < 3000 ? stimuli[channel][n - periodFrames] : 0)
                    return recording[n] != expected
                }
                #expect(wrong == nil, "channel \(channel): first wrong frame \(wrong ?? -1)")
            }
        }
    }

    @Test("scheduled MIDI messages come out in the period they are due, at their frame of it, in order", arguments: [64, 256, 1000])
    func midiSchedule(periodFrames: Int) {
        // Frames on, just before and just after period edges, and two in one period.
        let frames = [0, 63, 64, 255, 256, 999, 1000, 1001, 2500, 2501, 4999]
        let messages = frames.enumerated().map { TimedMIDIMessage(frame: $1, status: 0x90, data1: UInt8($0), data2: 100) }
        let engine = MeasureEngine(stimuli: [[Float](repeating: 0, count: 5000)], recordingFrames: 6000,
                                   midiMessages: messages.reversed(), midiOutCapacity: 512)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: periodFrames)
        let out = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 512)
        defer { buffer.deallocate(); out.deallocate() }
        buffer.initialize(repeating: 0, count: periodFrames)
        var inputs: [UnsafePointer<Float>?] = [UnsafePointer(buffer)]
        var outputs: [UnsafeMutablePointer<Float>?] = [buffer]
        func period() -> [MIDIEvent] {
            let count = engine.render(inputs: &inputs, outputs: &outputs, channels: 1, frames: periodFrames, midiOut: out)
            return (0..<count).map { out[$0] }
        }
        #expect(period().isEmpty, "nothing before arm()")
        engine.arm()
        var sent: [(frame: Int, note: UInt8)] = []
        var start = 0
        while !engine.isFinished {
            for event in period() {
                #expect(Int(event.time) < periodFrames && event.size == 3 && event.data.0 == 0x90)
                sent.append((start + Int(event.time), event.data.1))
            }
            start += periodFrames
        }
        #expect(sent.map(\.frame) == frames)
        #expect(sent.map(\.note) == frames.indices.map { UInt8($0) })
    }
}
