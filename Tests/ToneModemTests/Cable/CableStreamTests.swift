import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

@Suite("Cable modem: streaming receiver")
struct CableStreamTests {
    static let rate = 48_000.0

    /// Pushes `signal` in chunks of seeded random sizes (1…4096 samples).
    static func pushChunked(_ signal: [Float], into receiver: CableStreamReceiver, seed: UInt64) -> [CableReception] {
        var random = SeededRandom(seed: seed)
        var receptions: [CableReception] = []
        var offset = 0
        while offset < signal.count {
            let length = min(signal.count - offset, 1 + Int(random.next() % 4096))
            receptions += signal[offset..<(offset + length)].withUnsafeBufferPointer { receiver.push($0) }
            offset += length
        }
        return receptions
    }

    /// A message of `count` seeded bytes, the modulator, its transmission and a fresh receiver.
    static func transmission(_ count: Int, seed: UInt64) throws
        -> (message: [UInt8], modulator: CableModulator, signal: [Float], receiver: CableStreamReceiver) {
        let message = CableRoundTripTests.randomBytes(count, seed: seed)
        let modulator = try CableModulator(sampleRateHz: rate)
        return (message, modulator, try modulator.render(message: message), try CableStreamReceiver(sampleRateHz: rate))
    }

    @Test("two transmissions back to back amid silence, pushed in random chunks, arrive whole at their sample positions")
    func chunked() throws {
        let first = CableRoundTripTests.randomBytes(20_000, seed: 11)
        let second = CableRoundTripTests.randomBytes(3, seed: 12)
        let modulator = try CableModulator(sampleRateHz: Self.rate)
        let one = try modulator.render(message: first)
        let silence = [Float](repeating: 0, count: 30_001)
        let signal = silence + one + [Float](repeating: 0, count: 500) + (try modulator.render(message: second)) + silence
        let receiver = try CableStreamReceiver(sampleRateHz: Self.rate)
        let receptions = Self.pushChunked(signal, into: receiver, seed: 3) + receiver.finish()
        #expect(receptions.map(\.message) == [first, second])
        #expect(receptions.map(\.startSample) == [30_001, 30_001 + one.count + 500])
    }

    @Test("a gap the input reported inside a frame: nothing delivered, the frame counted damaged, the next transmission whole")
    func gap() throws {
        let (message, modulator, signal, receiver) = try Self.transmission(10_000, seed: 13)
        let cut = signal.count / 2
        var receptions = receiver.push(Array(signal[0..<cut]))
        receiver.skip(frames: 100)
        receptions += receiver.push(Array(signal[(cut + 100)...]))
        receptions += receiver.push(try modulator.render(message: message)) + receiver.finish()
        #expect(receptions.count == 2)
        #expect(receptions.first?.message == nil)
        #expect(receptions.first?.damagedFrames ?? 0 >= 1)
        #expect(receptions.last?.message == message)
    }

    @Test("a sender that stops halfway: ended by the silence after it (no finish), its missing frames cut off, nothing delivered")
    func senderStops() throws {
        let (_, _, signal, receiver) = try Self.transmission(30_000, seed: 14)
        let receptions = receiver.push(Array(signal[0..<(signal.count / 2)]) + [Float](repeating: 0, count: 48_000))
        let reception = try #require(receptions.first)
        #expect(reception.message == nil)
        #expect(reception.truncatedFrames > 0)
        #expect(reception.summary.contains("cut off"))
    }

    @Test("a receiver started halfway through a transmission delivers nothing of it and hears the next one")
    func startedHalfway() throws {
        let (_, modulator, signal, receiver) = try Self.transmission(20_000, seed: 15)
        let next = CableRoundTripTests.randomBytes(500, seed: 16)
        let receptions = receiver.push(Array(signal[(signal.count / 2)...]) + (try modulator.render(message: next))) + receiver.finish()
        #expect(receptions.compactMap(\.message) == [next])
    }
}
