import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

@Suite("Cable modem: a dropout or a jump costs the frames it touches")
struct CableDropoutTests {
    static let rate = 48_000.0
    static let geometry = CableGeometry(sampleRateHz: rate)!
    static let frames = 12

    /// A transmission of `frames` frames under the plan for `snrDB` less `marginDB` on every band, white noise at `snrDB` added.
    static func transmission(snrDB: Double, marginDB: Double = 3, seed: UInt64) throws
        -> (message: [UInt8], signal: [Float], payload: Int) {
        let plan = CablePlan(bandSNRdB: [Double](repeating: snrDB - marginDB, count: CablePlan.bandCount))
        let modulator = try CableModulator(sampleRateHz: rate, plan: plan)
        let payload = try modulator.payloadBytesPerFrame()
        let message = CableRoundTripTests.randomBytes(frames * payload - 100, seed: seed)
        return (message, CableNoiseTests.noisy(try modulator.render(message: message), snrDB: snrDB, seed: seed + 100), payload)
    }

    /// Samples (from the chirp's start) that frame `frame` occupies, prefixes included.
    static func frameSpan(_ frame: Int) -> Range<Int> {
        let first = CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame
        return geometry.symbolStart(first)..<geometry.symbolStart(first + CablePlan.symbolsPerFrame)
    }

    /// Every piece the reception kept is the message's own bytes at its place.
    static func piecesExact(_ reception: CableReception, _ message: [UInt8]) -> Bool {
        reception.intactPieces.allSatisfy { piece in
            piece.messageOffset + piece.bytes.count <= message.count
                && Array(message[piece.messageOffset..<(piece.messageOffset + piece.bytes.count)]) == piece.bytes
        }
    }

    static func receive(_ signal: [Float], seed: UInt64) throws -> CableReception {
        let receiver = try CableStreamReceiver(sampleRateHz: rate)
        let receptions = CableStreamTests.pushChunked([Float](repeating: 0, count: 5000) + signal + [Float](repeating: 0, count: 20_000),
                                                      into: receiver, seed: seed) + receiver.finish()
        return try #require(receptions.first)
    }

    @Test("a 30 ms mute inside the data: only the frames it overlaps are missing, the others kept exact",
          arguments: [(60.0, UInt64(1)), (50, 2), (50, 3), (40, 4), (30, 5)])
    func mute(snrDB: Double, seed: UInt64) throws {
        // Below 40 dB today's plans lose frames to the noise alone at 3 dB margin (the planning's own matter): 6 dB there.
        let made = try Self.transmission(snrDB: snrDB, marginDB: snrDB < 40 ? 6 : 3, seed: seed)
        let message = made.message
        var signal = made.signal
        var random = SeededRandom(seed: seed)
        let muteSamples = Int(0.030 * Self.rate)
        let data = Self.frameSpan(1).lowerBound..<(Self.frameSpan(Self.frames - 2).upperBound - muteSamples)
        let start = data.lowerBound + Int(random.next() % UInt64(data.count))
        let mute = start..<(start + muteSamples)
        for index in mute { signal[index] = 0 }
        let touched = (0..<Self.frames).filter { Self.frameSpan($0).overlaps(mute) }.count
        let reception = try Self.receive(signal, seed: seed)
        #expect(reception.message == nil)
        #expect(reception.damagedFrames + reception.truncatedFrames <= touched, "mute at \(mute), \(reception.summary)")
        #expect(Self.piecesExact(reception, message))
        #expect(reception.lostOnlyToDropouts, "a mute is a dropout, not noise")
        let kept = reception.intactPieces.reduce(0) { $0 + $1.bytes.count }
        #expect(kept >= message.count - touched * made.payload, "\(kept) of \(message.count) bytes kept")
    }

    @Test("a jump (samples lost or inserted unreported: an xrun on either side): timing regained within one frame",
          arguments: [(1024, UInt64(11)), (-1024, 12), (256, 13), (-256, 14), (37, 15), (-500, 16)])
    func jump(samples: Int, seed: UInt64) throws {
        let made = try Self.transmission(snrDB: 40, seed: seed)
        let message = made.message
        var signal = made.signal
        var random = SeededRandom(seed: seed)
        let data = Self.frameSpan(1).lowerBound..<Self.frameSpan(Self.frames - 3).upperBound
        let at = data.lowerBound + Int(random.next() % UInt64(data.count))
        if samples > 0 {
            signal.insert(contentsOf: [Float](repeating: 0, count: samples), at: at)
        } else {
            signal.removeSubrange(at..<(at - samples))
        }
        let reception = try Self.receive(signal, seed: seed)
        // The frame the jump lies in, and at most the next one.
        #expect(reception.damagedFrames + reception.truncatedFrames <= 2, "jump at \(at): \(reception.summary)")
        #expect(Self.piecesExact(reception, message))
        let lastFrame = (Self.frames - 1) * made.payload
        #expect(reception.intactPieces.contains { $0.messageOffset == lastFrame }, "the last frame read again after the jump")
    }

    @Test("a mute over the header is a dropout; a plan too high for the noise is not")
    func dropoutOrNoise() throws {
        var signal = try Self.transmission(snrDB: 50, seed: 21).signal
        let header = Self.geometry.symbolStart(2)
        for index in (header + 200)..<(header + 200 + Int(0.030 * Self.rate)) { signal[index] = 0 }
        let muted = try Self.receive(signal, seed: 21)
        #expect(muted.header == nil && muted.lostOnlyToDropouts, "\(muted.summary)")
        // The plan for 50 dB through noise at 25 dB: frames fail with their energy all there.
        let noisy = try Self.receive(CableNoiseTests.noisy(try Self.transmission(snrDB: 200, seed: 22).signal, snrDB: 25, seed: 23), seed: 22)
        #expect(noisy.damagedFrames > 0 && !noisy.lostOnlyToDropouts, "\(noisy.summary)")
    }
}
