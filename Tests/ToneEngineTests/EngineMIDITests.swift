import Foundation
import Testing
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

@Suite("Engine: MIDI events inside a period")
struct EngineMIDITests {
    @Test("a note-on at frame k of a period starts the note exactly at k", arguments: [0, 1, 100, 255])
    func sampleAccurate(frame: Int) {
        let rate = 48_000.0
        let engine = Engine(sampleRateHz: rate, frequencyHz: 1000, amplitude: 0.5, muted: true)
        var reference = ToneGenerator(sampleRateHz: rate, frequencyHz: 1000, levelAmplitude: 0.5, muted: true, rampFrames: 480)
        let frames = 256
        var input = [Float](repeating: 0, count: frames)
        var output = [Float](repeating: .nan, count: frames)
        let event = MIDIEvent(time: UInt32(frame), size: 3, data: (0x90, 69, 127, 0))
        input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                withUnsafePointer(to: event) {
                    engine.render(input: inBuffer.baseAddress!, output: outBuffer.baseAddress!, frames: frames,
                                  midi: $0, midiCount: 1)
                }
            }
        }
        var expected = reference.render(frames: frame)
        reference.applyMIDI(status: 0x90, data1: 69, data2: 127)
        expected += reference.render(frames: frames - frame)
        #expect(output == expected)
        #expect(output.prefix(frame).allSatisfy { $0 == 0 })
        #expect(output[frame] != 0)
        #expect(engine.midiMessages.load(ordering: .relaxed) == 1)
    }
}

extension ToneGenerator {
    mutating func render(frames: Int) -> [Float] {
        var out = [Float](repeating: .nan, count: frames)
        out.withUnsafeMutableBufferPointer { render(into: $0.baseAddress!, frames: frames) }
        return out
    }
}
