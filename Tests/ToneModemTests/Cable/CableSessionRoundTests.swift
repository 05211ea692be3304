import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

@Suite("Cable session: segment sizes, resend rounds, stalls")
struct CableSessionRoundTests {
    static let carriers = CableGeometry(sampleRateHz: 48_000)?.carrierCount ?? 0
    static let snr = [Double](repeating: 60, count: CablePlan.bandCount)

    static func answer(_ sender: CableSessionSender, missing: [Range<Int>], snr: [Double] = snr) -> CableSessionMessage {
        .acknowledgement(CableAcknowledgement(transferID: sender.transferID, totalBytes: sender.file.count, bandSNRdB: snr,
                                              missing: missing, digest: nil))
    }

    /// A sender past its probe, the plan chosen from `snr`.
    static func sending(_ file: [UInt8], snr: [Double] = snr) -> (CableSessionSender, [CableSessionSender.Action]) {
        var sender = CableSessionSender(transferID: 5, file: file, digest: CableSessionTests.digest(file), carrierCount: carriers)
        _ = sender.start()
        _ = sender.transmitted(now: 0)
        let actions = sender.heard(answer(sender, missing: [0..<file.count], snr: snr), now: 1)
        _ = sender.transmitted(now: 2)
        return (sender, actions)
    }

    @Test("one home for a segment's size: a segment of that many bytes fills exactly its 32 frames, one byte more needs a 33rd",
          arguments: [CablePlan.fileDefault, CableSessionMessage.controlPlan, CablePlan(bandSNRdB: [Double](repeating: 25, count: 16))])
    func segmentSize(plan: CablePlan) throws {
        let modulator = try CableModulator(sampleRateHz: 48_000, plan: plan)
        let bytes = try modulator.segmentDataBytes()
        #expect(bytes == CableSegment.dataBytes(plan: plan, carrierCount: Self.carriers))
        let payload = try modulator.payloadBytesPerFrame()
        #expect(bytes + CableSegment.overheadBytes == CableSegment.framesPerSegment * payload)
        let frames = { (count: Int) in (count + CableSegment.overheadBytes + payload - 1) / payload }
        #expect(frames(bytes) == CableSegment.framesPerSegment)
        #expect(frames(bytes + 1) == CableSegment.framesPerSegment + 1)
    }

    @Test("the session cuts the file by the plan its probe chose")
    func sessionSegments() {
        let file = CableSessionTests.file(400_000, seed: 4)
        let (sender, actions) = Self.sending(file)
        let plan = CablePlan(bandSNRdB: Self.snr.map { $0 - 3 })
        #expect(actions.first == .usePlan(plan))
        let expected = CableSegment.dataBytes(plan: plan, carrierCount: Self.carriers) ?? 0
        #expect(sender.segmentDataBytes == expected)
        #expect(sender.segments == CableSegment.ranges(totalBytes: file.count, dataBytes: expected))
    }

    @Test("a resend round sends the missing bytes, and a poll when it does not end with the file's last byte")
    func resendRound() {
        let file = CableSessionTests.file(400_000, seed: 5)
        var (sender, _) = Self.sending(file)
        let size = sender.segmentDataBytes
        let actions = sender.heard(Self.answer(sender, missing: [size..<(2 * size)]), now: 3)
        #expect(actions == [.transmit(.segment(CableSegment(transferID: 5, offset: size, totalBytes: file.count,
                                                              data: file[size..<(2 * size)]))),
                            .transmit(.poll(transferID: 5, totalBytes: file.count))])
        #expect(sender.resentSegments == 1)
    }

    @Test("an answer heard while the round is still leaving is taken when it has left: the resend, with no wait and no poll")
    func earlyAnswer() {
        let file = CableSessionTests.file(400_000, seed: 7)
        var sender = CableSessionSender(transferID: 5, file: file, digest: CableSessionTests.digest(file), carrierCount: Self.carriers)
        _ = sender.start()
        // The probe's answer before the probe has left: kept, taken at `transmitted`.
        #expect(sender.heard(Self.answer(sender, missing: [0..<file.count]), now: 0.5).isEmpty)
        let first = sender.transmitted(now: 1)
        #expect(first.first == .usePlan(CablePlan(bandSNRdB: Self.snr.map { $0 - 3 })), "\(first.count) actions")
        #expect(sender.phase == .sending)
        let size = sender.segmentDataBytes
        #expect(sender.heard(Self.answer(sender, missing: [size..<(2 * size)]), now: 1.5).isEmpty)
        let resend = sender.transmitted(now: 2)
        #expect(resend == [.transmit(.segment(CableSegment(transferID: 5, offset: size, totalBytes: file.count,
                                                             data: file[size..<(2 * size)]))),
                           .transmit(.poll(transferID: 5, totalBytes: file.count))])
        // The answer that started this round, heard again (a poll's answer after a late one): dropped.
        #expect(sender.heard(Self.answer(sender, missing: [size..<(2 * size)]), now: 2.5).isEmpty)
        #expect(sender.transmitted(now: 3).isEmpty)
        #expect(sender.phase == .waiting)
        #expect(sender.tick(now: 3 + sender.answerTimeoutSeconds) == [.transmit(.poll(transferID: 5, totalBytes: file.count))])
    }

    @Test("the digest heard while the last round is still leaving confirms at once")
    func earlyDigest() {
        let file = CableSessionTests.file(400_000, seed: 8)
        var (sender, _) = Self.sending(file)
        let size = sender.segmentDataBytes
        _ = sender.heard(Self.answer(sender, missing: [0..<size]), now: 3)
        let whole = CableSessionMessage.acknowledgement(CableAcknowledgement(
            transferID: 5, totalBytes: file.count, bandSNRdB: Self.snr, missing: [], digest: CableSessionTests.digest(file)))
        #expect(sender.heard(whole, now: 3.5).isEmpty)
        #expect(sender.transmitted(now: 4) == [.transmit(.finished(transferID: 5)), .confirmed])
        #expect(sender.phase == .confirmed)
    }

    /// A path that re-times the stream (zita-njbridge) damages more than the
    /// probe's one frame showed: a round's answer reports what its segment's
    /// data showed, and the resend is planned from it when lower; an answer
    /// no lower keeps the plan.
    @Test("a round that lost segments, its answer's SNR lower than planned: the resend is planned from it")
    func replanFromAnswer() {
        let file = CableSessionTests.file(400_000, seed: 8)
        var (sender, _) = Self.sending(file)
        let size = sender.segmentDataBytes
        let same = sender.heard(Self.answer(sender, missing: [size..<(2 * size)]), now: 3)
        #expect(!same.contains { if case .usePlan = $0 { true } else { false } })
        _ = sender.transmitted(now: 4)
        let lower = Self.snr.map { $0 - 12 }
        // Less missing than before (the round gained bytes: no stall, no added margin).
        let missing = (2 * size)..<(2 * size + size / 2)
        let actions = sender.heard(Self.answer(sender, missing: [missing], snr: lower), now: 5)
        let plan = CablePlan(bandSNRdB: lower.map { $0 - 3 })
        #expect(actions.first == .usePlan(plan))
        #expect(sender.plan == plan && sender.segmentDataBytes < size)
        #expect(sender.segments == CableSegment.ranges(covering: missing, dataBytes: sender.segmentDataBytes))
    }

    @Test("rounds that gain nothing plan with more margin each time, then end in one line")
    func stalls() {
        let file = CableSessionTests.file(100_000, seed: 6)
        var (sender, _) = Self.sending(file)
        var plans: [CablePlan] = [sender.plan]
        var failure: String?
        for round in 0..<10 where failure == nil {
            for action in sender.heard(Self.answer(sender, missing: [0..<file.count]), now: Double(3 + 2 * round)) {
                if case .usePlan(let plan) = action { plans.append(plan) }
                if case .failed(let line) = action { failure = line }
            }
            _ = sender.transmitted(now: Double(4 + 2 * round))
        }
        #expect(plans.count == sender.maximumStalledRounds)
        #expect(plans == [3.0, 9, 15, 21].map { margin in CablePlan(bandSNRdB: Self.snr.map { $0 - margin }) })
        #expect(failure?.hasPrefix("the receiver lost every segment of 4 rounds in a row") == true, "\(failure ?? "nil")")
        #expect(sender.phase == .failed)
    }

    @Test("the closing word: the receiver stops only for the transfer it delivered")
    func closing() {
        var receiver = CableSessionReceiver(digest: CableSessionTests.digest)
        let file = CableSessionTests.file(100, seed: 7)
        #expect(receiver.heard(.finished(transferID: 9), bandSNRdB: Self.snr) == [])
        let segment = CableSegment(transferID: 9, offset: 0, totalBytes: file.count, data: file[...])
        let actions = receiver.heard(.segment(segment), bandSNRdB: Self.snr)
        #expect(actions.first == .delivered(file))
        #expect(receiver.heard(.finished(transferID: 8), bandSNRdB: Self.snr) == [])
        #expect(receiver.heard(.finished(transferID: 9), bandSNRdB: Self.snr) == [.closed])
    }
}
