import Foundation
import Testing
import ToneDSP

extension ToneGenerator {
    mutating func render(frames: Int) -> [Float] {
        var out = [Float](repeating: .nan, count: frames)
        out.withUnsafeMutableBufferPointer { render(into: $0.baseAddress!, frames: frames) }
        return out
    }

    /// The frequency the steady voice is heading for.
    var targetFrequencyHz: Double {
        var copy = voice
        var scratch = [Float](repeating: 0, count: copy.rampFrames + 1)
        scratch.withUnsafeMutableBufferPointer { copy.render(into: $0.baseAddress!, frames: $0.count) }
        return Oscillator.frequencyHz(increment: copy.increment, sampleRateHz: sampleRateHz)
    }
}

@Suite("Tone generator: controls and MIDI")
struct ToneGeneratorTests {
    static let rate = 48_000.0

    static func generator(muted: Bool = true, a4Hz: Double = 440, level: Double = 0.5) -> ToneGenerator {
        ToneGenerator(sampleRateHz: rate, frequencyHz: 1000, levelAmplitude: level, muted: muted, rampFrames: 480,
                      a4Hz: a4Hz, bendRangeSemitones: 2)
    }

    @Test("a note-on plays its equal-tempered frequency around A4, velocity scales the level",
          arguments: [(69, 440.0), (60, 440.0), (81, 432.0), (21, 415.0), (127, 440.0)])
    func noteOn(note: Int, a4Hz: Double) {
        var generator = Self.generator(a4Hz: a4Hz)
        generator.applyMIDI(status: 0x90, data1: UInt8(note), data2: 100)
        let expected = EqualTemperament(a4Hz: a4Hz).frequencyHz(midiNote: Double(note))
        #expect(abs(generator.targetFrequencyHz - expected) / expected < 1e-12)
        _ = generator.render(frames: 1000)
        #expect(abs(generator.voice.amplitude - 0.5 * 100 / 127) < 1e-12)
    }

    @Test("pitch bend: ±2 semitones at the ends, none at the centre, applied to the sounding note")
    func bend() {
        var generator = Self.generator()
        generator.applyMIDI(status: 0x90, data1: 69, data2: 127)
        for (lsb, msb, semitones) in [(UInt8(0x7F), UInt8(0x7F), 2.0 * 8191 / 8192), (0, 0x40, 0), (0, 0, -2)] {
            generator.applyMIDI(status: 0xE3, data1: lsb, data2: msb)
            let expected = 440 * pow(2, semitones / 12)
            #expect(abs(generator.targetFrequencyHz - expected) / expected < 1e-12)
        }
        // The bend is kept for the next note.
        generator.applyMIDI(status: 0x90, data1: 81, data2: 127)
        #expect(abs(generator.targetFrequencyHz - 880 * pow(2, -2.0 / 12)) < 1e-9)
    }

    @Test("note-off releases only the sounding note; velocity 0 is a note-off")
    func noteOff() {
        var generator = Self.generator()
        generator.applyMIDI(status: 0x90, data1: 60, data2: 90)
        generator.applyMIDI(status: 0x90, data1: 64, data2: 90)        // last note wins
        generator.applyMIDI(status: 0x80, data1: 60, data2: 0)         // not sounding: ignored
        _ = generator.render(frames: 600)
        #expect(generator.note == 64 && generator.voice.amplitude > 0)
        generator.applyMIDI(status: 0x90, data1: 64, data2: 0)         // running-status style note-off
        let tail = generator.render(frames: 600)
        #expect(generator.note == -1)
        #expect(generator.voice.amplitude == 0)
        #expect(tail.suffix(100).allSatisfy { $0 == 0 })
        // Release is a ramp, not a cut.
        #expect(zip(tail, tail.dropFirst()).allSatisfy { abs($1 - $0) < 0.05 })
    }

    @Test("last change wins: freq ends a note, mute off plays the tone again")
    func controlsAndNotes() {
        var generator = Self.generator(muted: false)
        generator.applyMIDI(status: 0x90, data1: 69, data2: 127)
        generator.apply(.tone(frequencyHz: 2000, sampleRateHz: Self.rate))
        #expect(generator.note == -1)
        #expect(abs(generator.targetFrequencyHz - 2000) < 1e-9)
        generator.apply(.mute(true))
        _ = generator.render(frames: 1000)
        #expect(generator.voice.amplitude == 0)
        generator.apply(.mute(false))
        _ = generator.render(frames: 1000)
        #expect(abs(generator.voice.amplitude - 0.5) < 1e-12)
    }

    @Test("an event applied at frame k of a period is the same as a period cut at k (sample accuracy)")
    func sampleAccurate() {
        // Reference: note-on exactly at frame 100 of a silent start.
        var reference = Self.generator()
        let before = reference.render(frames: 100)
        reference.applyMIDI(status: 0x90, data1: 69, data2: 127)
        let after = reference.render(frames: 156)
        #expect(before.allSatisfy { $0 == 0 })
        // The level ramp's first step (0.5/480 at most) is frame 100's sample.
        #expect(after[0] != 0 && abs(after[0]) <= Float(0.5 / 480), "the ramp starts at frame 100, not before or after")
        // Another split of the same timeline gives the same samples.
        var other = Self.generator()
        var samples = other.render(frames: 37) + other.render(frames: 63)
        other.applyMIDI(status: 0x90, data1: 69, data2: 127)
        samples += other.render(frames: 1) + other.render(frames: 155)
        #expect(samples == before + after)
    }

    @Test("a beep over a tone crossfades and gives the tone back; a second beep waits for the first to fade")
    func beepOverTone() throws {
        var generator = Self.generator(muted: false)
        _ = generator.render(frames: 1000)
        let first = try #require(ToneShot.beep(frequencyHz: 3000, seconds: 0.1, amplitude: 0.5, sampleRateHz: Self.rate))
        let second = try #require(ToneShot.beep(frequencyHz: 5000, seconds: 0.05, amplitude: 0.5, sampleRateHz: Self.rate))
        generator.apply(.shot(first))
        var samples = generator.render(frames: 2000)
        generator.apply(.shot(second))                          // mid-hold: first releases over 10 ms
        samples += generator.render(frames: 10_000)
        #expect(!generator.shot.isActive)
        // No step anywhere: the largest slope is the 5 kHz beep's, plus the envelope's.
        let bound = 0.5 * (2 * Double.pi * 5000 / Self.rate + Double.pi / 960) + 1e-4
        #expect(zip(samples, samples.dropFirst()).allSatisfy { abs(Double($1) - Double($0)) <= bound })
        // After both: the 1 kHz tone, at its level.
        let tail = samples.suffix(480)
        #expect(abs(Double(tail.map { abs($0) }.max()!) - 0.5) < 1e-3)
    }

    @Test("mute on cuts a beep with its release, and beeps play while the tone is muted")
    func muteAndBeep() throws {
        var generator = Self.generator(muted: true)
        generator.apply(.shot(try #require(ToneShot.beep(frequencyHz: 1000, seconds: 1, amplitude: 0.5, sampleRateHz: Self.rate))))
        let playing = generator.render(frames: 2000)
        #expect(playing.suffix(500).map { abs($0) }.max()! > 0.49)
        generator.apply(.mute(true))
        let released = generator.render(frames: 1000)
        #expect(!generator.shot.isActive)
        #expect(released.suffix(500).allSatisfy { $0 == 0 })
    }

    @Test("bad control values change nothing")
    func badLevel() {
        var generator = Self.generator(muted: false)
        generator.apply(.level(amplitude: .nan))
        generator.apply(.level(amplitude: -1))
        #expect(generator.levelAmplitude == 0.5)
    }
}
