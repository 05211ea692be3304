import Testing
import ToneDSP
import ToneModem
import ToneTestSupport
@testable import tonenode
@testable import ToneFileCommands

/// `decode` and `run --receive-profile cable` take what a recording of a
/// session holds: its control transmissions are not messages.
@Suite("Cable transfers: a session's control transmissions are not messages")
struct CableTransferOutputTests {
    static let rate = 48_000.0

    /// The receptions of `parts` (bytes, plan) played one after another, 0.2 s of silence between.
    static func receptions(_ parts: [([UInt8], CablePlan)]) throws -> [CableReception] {
        var samples = [Float](repeating: 0, count: 9_600)
        for (bytes, plan) in parts {
            samples += try CableModulator(sampleRateHz: rate, plan: plan).render(message: bytes)
            samples += [Float](repeating: 0, count: 9_600)
        }
        return try CableDemodulator(sampleRateHz: rate).receiveAll(samples)
    }

    @Test("a recorded session (probe, two segments, poll, answer, closing word): the file whole, once; four control transmissions counted")
    func recordedSession() throws {
        var random = SeededRandom(seed: 33)
        let file = (0..<1_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let id: UInt32 = 0x5E55_1011
        let control = CableSessionMessage.controlPlan
        let segment = { (range: Range<Int>) in
            (CableSessionMessage.segment(CableSegment(transferID: id, offset: range.lowerBound, totalBytes: file.count,
                                                      data: file[range])).encoded, CablePlan.fileDefault)
        }
        let answer = CableAcknowledgement(transferID: id, totalBytes: file.count,
                                          bandSNRdB: [Double](repeating: 40, count: CablePlan.bandCount), missing: [],
                                          digest: SHA256.digest(file))
        let receptions = try Self.receptions([
            (CableSessionMessage.probe(transferID: id).encoded, control), segment(0..<600), segment(600..<1_000),
            (CableSessionMessage.poll(transferID: id, totalBytes: file.count).encoded, control),
            (CableSessionMessage.acknowledgement(answer).encoded, control),
            (CableSessionMessage.finished(transferID: id).encoded, control),
        ])
        try #require(receptions.count == 6, "\(receptions.map(\.summary))")
        var output = CableTransferOutput(json: false, progress: false)
        var delivered: [[UInt8]] = []
        for reception in receptions {
            if let delivery = output.take(reception, timeSeconds: 0) { delivered.append(delivery.bytes) }
        }
        #expect(delivered == [file], "\(delivered.map(\.count)) bytes delivered")
        #expect(output.controlTransmissions == 4)
    }

    @Test("a plain message whose bytes read as a probe, sent in encode's plan, is still a message")
    func plainLookalike() throws {
        let bytes = Array("TNP1abcd".utf8)
        #expect(CableSessionMessage(decoding: bytes) == .probe(transferID: UInt32(0x6463_6261)))
        let receptions = try Self.receptions([(bytes, CablePlan.fileDefault)])
        var output = CableTransferOutput(json: false, progress: false)
        #expect(receptions.count == 1)
        #expect(receptions.compactMap { output.take($0, timeSeconds: 0)?.bytes } == [bytes])
        #expect(output.controlTransmissions == 0)
    }
}
