import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

@Suite("Cable session: the state machines over a simulated lossy channel")
struct CableSessionTests {
    /// A stand-in digest for these tests (the commands use SHA-256): FNV-1a, spread to 32 bytes.
    static let digest: @Sendable ([UInt8]) -> [UInt8] = { bytes in
        (0..<32).map { lane in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325 &+ UInt64(lane)
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            return UInt8(truncatingIfNeeded: hash >> 29)
        }
    }

    struct Outcome {
        var confirmed = false
        /// The receiver heard the sender's closing word.
        var closed = false
        var failure: String?
        var delivered: [[UInt8]] = []
        var seconds = 0.0
        var resent = 0
        var plan = CablePlan.fileDefault
    }

    /// Runs one session: each transmission is lost with probability `forwardLoss`
    /// (sender → receiver) or `returnLoss`; a lost one is heard as damaged or not at all.
    static func run(file: [UInt8], forwardLoss: Double, returnLoss: Double, seed: UInt64, snrDB: Double = 60,
                    receiverDigest: @escaping @Sendable ([UInt8]) -> [UInt8] = digest) -> Outcome {
        var random = SeededRandom(seed: seed)
        func lost(_ probability: Double) -> Bool { Double(random.next() % 1_000_000) / 1_000_000 < probability }
        let carriers = CableGeometry(sampleRateHz: 48_000)?.carrierCount ?? 0
        var sender = CableSessionSender(transferID: 0xC0FFEE, file: file, digest: digest(file), carrierCount: carriers)
        var receiver = CableSessionReceiver(digest: receiverDigest)
        let snr = [Double](repeating: snrDB, count: CablePlan.bandCount)
        var outcome = Outcome()
        var now = 0.0
        var pending = sender.start()
        while now < 600 {
            var answers: [CableSessionMessage] = []
            for action in pending {
                switch action {
                case .transmit(let message):
                    now += 0.2 + Double(message.encoded.count) / 22_000
                    if !lost(forwardLoss) {
                        for reply in receiver.heard(message, bandSNRdB: snr) {
                            switch reply {
                            case .transmit(let answer): answers.append(answer)
                            case .delivered(let bytes): outcome.delivered.append(bytes)
                            case .closed: outcome.closed = true
                            }
                        }
                    } else if random.next() % 2 == 0 {
                        _ = receiver.heard(nil, bandSNRdB: snr)
                    }
                case .usePlan(let plan): outcome.plan = plan
                case .confirmed: outcome.confirmed = true
                case .failed(let line): outcome.failure = line
                }
            }
            if outcome.confirmed || outcome.failure != nil { break }
            // Answers come only after the round has left here: nothing is heard early.
            pending = pending.isEmpty ? [] : sender.transmitted(now: now)
            for answer in answers {
                now += 0.2
                if !lost(returnLoss) { pending += sender.heard(answer, now: now) }
            }
            if pending.isEmpty {
                now += 0.5
                pending = sender.tick(now: now)
            }
        }
        outcome.seconds = now
        outcome.resent = sender.resentSegments
        return outcome
    }

    static func file(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    @Test("a clean channel: probe, plan, every segment once, confirmed with the digest")
    func clean() {
        let file = Self.file(300_000, seed: 1)
        let outcome = Self.run(file: file, forwardLoss: 0, returnLoss: 0, seed: 1, snrDB: 30)
        #expect(outcome.confirmed, "\(outcome.failure ?? "")")
        #expect(outcome.closed)
        let exact = outcome.delivered == [file]
        #expect(exact)
        #expect(outcome.resent == 0)
        #expect(outcome.plan == CablePlan(bandSNRdB: [Double](repeating: 27, count: CablePlan.bandCount)))
    }

    @Test("20 % of transmissions lost each way (dropouts, bursts, re-timings): confirmed every time, the file exact, delivered once",
          arguments: 1...16)
    func lossy(seed: UInt64) {
        let file = Self.file(500_000, seed: seed)
        let outcome = Self.run(file: file, forwardLoss: 0.2, returnLoss: 0.2, seed: seed)
        #expect(outcome.confirmed, "seed \(seed): \(outcome.failure ?? "")")
        let exact = outcome.delivered == [file]
        #expect(exact, "seed \(seed): delivered \(outcome.delivered.count) time(s)")
    }

    @Test("no return path: one line after the polls, no hang")
    func noReturnPath() {
        let outcome = Self.run(file: Self.file(1000, seed: 2), forwardLoss: 0, returnLoss: 1, seed: 2)
        #expect(!outcome.confirmed)
        #expect(outcome.failure?.hasPrefix("no answer from the receiver within 36 s (9 tries)") == true, "\(outcome.failure ?? "nil")")
        #expect(outcome.seconds < 60)
    }

    @Test("a receiver whose digest differs: the transfer is not confirmed, one line says so")
    func digestMismatch() {
        let outcome = Self.run(file: Self.file(1000, seed: 3), forwardLoss: 0, returnLoss: 0, seed: 3,
                               receiverDigest: { _ in [UInt8](repeating: 7, count: 32) })
        #expect(!outcome.confirmed)
        #expect(outcome.failure?.contains("SHA-256") == true)
    }

    @Test("session messages survive their encoding; other bytes are not taken for one")
    func encoding() throws {
        let answer = CableAcknowledgement(transferID: 9, totalBytes: 1000, bandSNRdB: (0..<16).map { Double($0) * 10 },
                                          missing: [0..<10, 500..<1000], digest: nil)
        let messages: [CableSessionMessage] = [
            .probe(transferID: 7), .poll(transferID: 7, totalBytes: 123_456),
            .segment(CableSegment(transferID: 7, offset: 10, totalBytes: 20, data: [1, 2, 3][...])),
            .acknowledgement(answer), .finished(transferID: 7),
        ]
        for message in messages { #expect(CableSessionMessage(decoding: message.encoded) == message) }
        #expect(CableSessionMessage(decoding: Array("hello, world".utf8)) == nil)
        #expect(CableSessionMessage(decoding: Array("TNS1 but far too short".utf8)) == nil)
    }
}
