import Foundation
import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

@Suite("Modem receiver as a stream")
struct ModemStreamTests {
    static let rate = 48_000.0

    @Test("a message at an arbitrary sample offset with music before, under and after it")
    func arbitraryOffsetWithAudio() throws {
        let modulator = try ModemModulator(profile: .ultrasonic, sampleRateHz: Self.rate)
        let message = Array("between songs".utf8)
        let sent = try modulator.render(message: message, messageID: 11)
        let music = ModemChannel.musicLike(seconds: 3, sampleRateHz: Self.rate, seed: 5)
        let offset = 54_321
        var signal = music
        for (index, value) in sent.enumerated() { signal[offset + index] += value }
        let messages = ModemChannel.messages(try ModemChannel.receive(signal, sampleRateHz: Self.rate, profiles: nil))
        #expect(messages.map(\.bytes) == [message])
        let expected = (Double(offset) + modulator.paddingSeconds * Self.rate) / Self.rate
        #expect(abs((messages.first?.timeSeconds ?? 0) - expected) < 0.001)
    }

    @Test("two messages back to back, in order", arguments: ModemProfile.allCases)
    func backToBack(profile: ModemProfile) throws {
        let modulator = try ModemModulator(profile: profile, sampleRateHz: Self.rate)
        let first = Array("first".utf8), second = Array("second message".utf8)
        let signal = (try modulator.render(message: first, messageID: 1)) + (try modulator.render(message: second, messageID: 2))
        let messages = ModemChannel.messages(try ModemChannel.receive(signal, sampleRateHz: Self.rate, profiles: nil))
        #expect(messages.map(\.bytes) == [first, second])
        #expect(messages.allSatisfy { $0.profile == profile })
    }

    @Test("chunk sizes from 1 to 8192 frames give the same messages", arguments: [1, 32, 100, 256, 1000, 4096, 8192])
    func chunkSizes(chunkFrames: Int) throws {
        let modulator = try ModemModulator(profile: .ultrasonicFast, sampleRateHz: Self.rate)
        let message = Array("chunks".utf8)
        let signal = [Float](repeating: 0, count: 999) + (try modulator.render(message: message, messageID: 4))
            + (try modulator.render(message: message + [33], messageID: 5))
        let messages = ModemChannel.messages(try ModemChannel.receive(signal, sampleRateHz: Self.rate,
                                                                      profiles: [.ultrasonicFast], chunkFrames: chunkFrames))
        #expect(messages.map(\.bytes) == [message, message + [33]])
    }

    @Test("a 4 KiB message is framed and reassembled")
    func fourKiB() throws {
        let rate = 16_000.0
        let modulator = try ModemModulator(profile: .audibleFast, sampleRateHz: rate)
        let message = ModemChannel.randomMessage(bytes: 4096, seed: 77)
        let signal = try modulator.render(message: message, messageID: 0x4B1D)
        let events = try ModemChannel.receive(signal, sampleRateHz: rate, profiles: [.audibleFast], chunkFrames: 4096)
        let messages = ModemChannel.messages(events)
        #expect(messages.count == 1 && ModemChannel.incomplete(events).isEmpty)
        #expect(messages.first?.bytes == message)
        #expect(messages.first?.frameCount == 128)
    }

    /// Frame boundaries of a rendered multi-frame message (frames are equally long).
    static func frameRange(_ index: Int, of signal: [Float], frames: Int) -> Range<Int> {
        let length = signal.count / frames
        return (index * length)..<((index + 1) * length)
    }

    @Test("a missing frame or a corrupted frame: reported incomplete, never delivered")
    func missingOrCorruptFrame() throws {
        let modulator = try ModemModulator(profile: .audibleFast, sampleRateHz: Self.rate)
        let message = ModemChannel.randomMessage(bytes: 90, seed: 3)  // 3 frames
        let signal = try modulator.render(message: message, messageID: 0x0303)
        var missing = signal
        for index in Self.frameRange(1, of: signal, frames: 3) { missing[index] = 0 }
        var corrupt = signal
        var random = SeededRandom(seed: 9)
        let middle = Self.frameRange(1, of: signal, frames: 3)
        // Strong noise over the data part of frame 2 (its preamble is still found).
        for index in (middle.lowerBound + middle.count / 2)..<middle.upperBound { corrupt[index] += Float(2 * random.gaussian()) }
        for damaged in [missing, corrupt] {
            let events = try ModemChannel.receive(damaged, sampleRateHz: Self.rate, profiles: [.audibleFast])
            #expect(ModemChannel.messages(events).isEmpty)
            let incomplete = ModemChannel.incomplete(events)
            #expect(incomplete.count == 1)
            #expect(incomplete.first?.receivedFrames == 2 && incomplete.first?.frameCount == 3)
            #expect(incomplete.first?.messageID == 0x0303)
        }
    }

    @Test("input dropped inside a frame (a gap): that frame is dropped; the next message decodes")
    func gap() throws {
        let modulator = try ModemModulator(profile: .ultrasonic, sampleRateHz: Self.rate)
        let first = Array("cut by a gap".utf8), second = Array("after the gap".utf8)
        let a = try modulator.render(message: first, messageID: 1)
        let b = try modulator.render(message: second, messageID: 2)
        let receiver = try ModemReceiver(sampleRateHz: Self.rate, profiles: [.ultrasonic])
        var events: [ModemEvent] = []
        let cut = a.count / 2
        events += receiver.push(Array(a[0..<cut]))
        // 256 frames never arrived; the rest of the frame (shifted by the gap) follows.
        receiver.skip(frames: 256)
        events += receiver.push(Array(a[(cut + 256)...]))
        events += receiver.push(b)
        events += receiver.finish()
        #expect(ModemChannel.messages(events).map(\.bytes) == [second])

        // A gap inside a multi-frame message: incomplete.
        let long = try modulator.render(message: ModemChannel.randomMessage(bytes: 40, seed: 1), messageID: 3)
        let receiver2 = try ModemReceiver(sampleRateHz: Self.rate, profiles: [.ultrasonic])
        var events2 = receiver2.push(Array(long[0..<(long.count * 3 / 4)]))
        receiver2.skip(frames: 100)
        events2 += receiver2.push(Array(long[(long.count * 3 / 4 + 100)...]))
        events2 += receiver2.finish()
        #expect(ModemChannel.messages(events2).isEmpty)
        #expect(ModemChannel.incomplete(events2).map(\.receivedFrames) == [1])
    }

    @Test("no false messages from white noise, pink noise, music-like input and silence, all profiles listening",
          arguments: ["white", "pink", "music", "silence"])
    func noFalseMessages(kind: String) throws {
        let seconds = 20.0
        let count = Int(seconds * Self.rate)
        var signal: [Float]
        switch kind {
        case "white":
            var random = SeededRandom(seed: 21)
            signal = (0..<count).map { _ in Float(0.1 * random.gaussian()) }
        case "pink":
            var pink = PinkNoise(seed: 22)
            signal = (0..<count).map { _ in Float(0.03 * pink.next()) }
        case "music":
            signal = ModemChannel.musicLike(seconds: seconds, sampleRateHz: Self.rate, seed: 23)
        default:
            signal = [Float](repeating: 0, count: count)
        }
        let events = try ModemChannel.receive(signal, sampleRateHz: Self.rate, profiles: nil, chunkFrames: 4096)
        #expect(events.isEmpty, "\(events)")
    }
}
