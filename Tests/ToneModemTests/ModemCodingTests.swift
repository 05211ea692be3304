import Foundation
import Testing
@testable import ToneDSP
@testable import ToneModem
import ToneTestSupport

@Suite("Modem coding: CRC-32, convolutional code, interleaver, frames")
struct ModemCodingTests {
    @Test("CRC-32 check value")
    func crcCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test("the Viterbi decoder corrects scattered errors in soft input", arguments: [false, true])
    func viterbiCorrects(punctured: Bool) {
        var random = SeededRandom(seed: punctured ? 2 : 1)
        let code = ConvolutionalCode(informationBits: 328, punctured: punctured)
        for _ in 0..<20 {
            let bits = (0..<328).map { _ in UInt8(random.next() & 1) }
            let coded = code.encode(bits)
            #expect(coded.count == code.codedBits)
            // Soft values ±1 with 3 % (0.4 % punctured) of them flipped and Gaussian jitter.
            let flipRate = punctured ? 0.004 : 0.03
            let soft: [Float] = coded.map { bit in
                let sign: Float = bit == 0 ? 1 : -1
                let flipped: Float = random.uniform() < flipRate ? -1 : 1
                return sign * flipped * Float(1 + 0.3 * random.gaussian())
            }
            let decoded = soft.withUnsafeBufferPointer { code.decode($0) }
            #expect(decoded == bits)
        }
    }

    @Test("the interleaver is a permutation into the slots")
    func interleaverIsPermutation() {
        let interleaver = BitInterleaver(bitCount: 668, slotCount: 710)
        #expect(Set(interleaver.slotOfBit).count == 668)
        #expect(interleaver.slotOfBit.allSatisfy { $0 >= 0 && $0 < 710 })
        // Neighbouring coded bits land far apart.
        let gaps = zip(interleaver.slotOfBit, interleaver.slotOfBit.dropFirst()).map { abs($0 - $1) }
        #expect(Double(gaps.reduce(0, +)) / Double(gaps.count) > 100)
    }

    @Test("frames: split, serialise, parse; any corruption is rejected")
    func frames() throws {
        let message = (0..<100).map { UInt8($0) }
        let frames = try ModemFrame.frames(of: message, messageID: 0x1234)
        #expect(frames.count == 4)
        #expect(frames.map(\.payload.count) == [32, 32, 32, 4])
        #expect(frames.flatMap(\.payload) == message)
        for frame in frames {
            let bytes = frame.bytes
            #expect(bytes.count == 41)
            #expect(ModemFrame(bytes: bytes) == frame)
            for byteIndex in stride(from: 0, to: bytes.count, by: 3) {
                var corrupted = bytes
                corrupted[byteIndex] ^= 0x10
                #expect(ModemFrame(bytes: corrupted) == nil)
            }
        }
        #expect(try ModemFrame.frames(of: [], messageID: 1).count == 1)
        #expect(ModemFrame.bytes(of: ModemFrame.bits(of: [0xA5, 0x3C])) == [0xA5, 0x3C])
    }

    @Test("reassembly delivers only whole messages and reports the rest incomplete")
    func reassembly() throws {
        var reassembler = MessageReassembler(timeoutSeconds: 2)
        let frames = try ModemFrame.frames(of: Array(repeating: 7, count: 70), messageID: 9)
        #expect(reassembler.add(frames[0], timeSeconds: 1, profile: .audible, snrDB: 10).isEmpty)
        #expect(reassembler.add(frames[2], timeSeconds: 2, profile: .audible, snrDB: 10).isEmpty)
        #expect(reassembler.expire(nowSeconds: 3).isEmpty)
        let expired = reassembler.expire(nowSeconds: 4.5)
        #expect(expired == [.incomplete(IncompleteModemMessage(messageID: 9, timeSeconds: 1, profile: .audible,
                                                                receivedFrames: 2, frameCount: 3))])
        var whole = MessageReassembler()
        _ = whole.add(frames[1], timeSeconds: 1, profile: .audible, snrDB: 10)
        _ = whole.add(frames[0], timeSeconds: 2, profile: .audible, snrDB: 12)
        let events = whole.add(frames[2], timeSeconds: 3, profile: .audible, snrDB: 14)
        guard case .message(let message) = events.first else {
            Issue.record("no message: \(events)")
            return
        }
        #expect(message.bytes == Array(repeating: 7, count: 70))
        #expect(abs(message.snrDB - 12) < 1e-9)
        #expect(whole.flush().isEmpty)
    }

    @Test("a message longer than 255 frames is refused with a reason")
    func tooLong() throws {
        let modulator = try ModemModulator(profile: .audibleFast, sampleRateHz: 16_000)
        #expect(throws: ModemModulator.SetupError.self) {
            try modulator.render(message: Array(repeating: 0, count: ModemFrame.maximumMessageBytes + 1), messageID: 1)
        }
        #expect(throws: ModemModulator.SetupError.self) { try ModemModulator(profile: .ultrasonic, sampleRateHz: 32_000) }
    }

    @Test("channel smoothing across subcarriers follows a timing slope and averages the noise away")
    func channelSmoothing() {
        var random = SeededRandom(seed: 77)
        let step = 0.3  // radians per subcarrier: a timing offset
        let clean = (0..<60).map { Complex(cos(step * Double($0) + 1), sin(step * Double($0) + 1)) }
        let noisy = clean.map { Complex($0.re + 0.5 * random.gaussian(), $0.im + 0.5 * random.gaussian()) }
        let smoothed = FrameDemodulator.smoothed(noisy, halfWidth: 4)
        func phaseError(_ values: [Complex]) -> Double {
            zip(values, clean).map { abs(($0 * $1.conjugate).phase) }.reduce(0, +) / Double(values.count)
        }
        #expect(phaseError(smoothed) < 0.6 * phaseError(noisy), "\(phaseError(smoothed)) against \(phaseError(noisy))")
        #expect(phaseError(smoothed) < 0.25)
    }
}
