/// What one cable transmission of a session carries: the first four bytes
/// say which. Only segments carry file bytes; everything else is sent in
/// `controlPlan`. A transmission that is none of them is a plain message
/// (`encode --profile cable`).
public enum CableSessionMessage: Sendable, Equatable {
    /// The sender's probe: a short transmission whose training symbols the
    /// receiver measures (SNR per band) and answers with an acknowledgement.
    case probe(transferID: UInt32)
    /// A piece of the file.
    case segment(CableSegment)
    /// The sender asks for an acknowledgement (one it waited for did not come).
    case poll(transferID: UInt32, totalBytes: Int)
    /// The receiver's answer.
    case acknowledgement(CableAcknowledgement)
    /// The sender has the receiver's digest and it matches: the receiver may stop.
    case finished(transferID: UInt32)

    static let probeMagic: [UInt8] = Array("TNP1".utf8)
    static let pollMagic: [UInt8] = Array("TNQ1".utf8)
    static let finishedMagic: [UInt8] = Array("TNF1".utf8)

    /// The plan probes, polls, answers and the closing word are sent in,
    /// whatever the path: QPSK on every band at rate 1/2 (a few dB of SNR
    /// carry it, and an answer of 32 missing ranges takes 3 frames). Only
    /// segments take the plan the probe's answer chose.
    public static let controlPlan = CablePlan(bandBits: Array(repeating: 2, count: CablePlan.bandCount), codeRate: .half)

    public var encoded: [UInt8] {
        switch self {
        case .probe(let id): Self.probeMagic + CableFrameCoder.littleEndian(UInt64(id), count: 4)
        case .segment(let segment): segment.encoded
        case .poll(let id, let total):
            Self.pollMagic + CableFrameCoder.littleEndian(UInt64(id), count: 4) + CableFrameCoder.littleEndian(UInt64(total), count: 8)
        case .acknowledgement(let acknowledgement): acknowledgement.encoded
        case .finished(let id): Self.finishedMagic + CableFrameCoder.littleEndian(UInt64(id), count: 4)
        }
    }

    /// What it is, in a user's words.
    public var name: String {
        switch self {
        case .probe: "probe"
        case .segment: "segment"
        case .poll: "poll"
        case .acknowledgement: "answer"
        case .finished: "closing word"
        }
    }

    /// The session's control message (probe, poll, answer, closing word) that
    /// `reception` carries, sent in `controlPlan`; nil for anything else (a
    /// segment, a plain message: a plain message whose bytes happen to read
    /// as one is sent in another plan by `encode`).
    public static func control(in reception: CableReception) -> CableSessionMessage? {
        guard reception.header?.plan == controlPlan, let bytes = reception.message,
              let message = CableSessionMessage(decoding: bytes) else { return nil }
        if case .segment = message { return nil }
        return message
    }

    /// nil: not a session message.
    public init?(decoding bytes: [UInt8]) {
        if bytes.count == 8, Array(bytes[0..<4]) == Self.probeMagic {
            self = .probe(transferID: UInt32(CableFrameCoder.readLittleEndian(bytes, at: 4, count: 4)))
        } else if bytes.count == 8, Array(bytes[0..<4]) == Self.finishedMagic {
            self = .finished(transferID: UInt32(CableFrameCoder.readLittleEndian(bytes, at: 4, count: 4)))
        } else if bytes.count == 16, Array(bytes[0..<4]) == Self.pollMagic,
                  CableFrameCoder.readLittleEndian(bytes, at: 8, count: 8) < 1 << 48 {
            self = .poll(transferID: UInt32(CableFrameCoder.readLittleEndian(bytes, at: 4, count: 4)),
                         totalBytes: Int(CableFrameCoder.readLittleEndian(bytes, at: 8, count: 8)))
        } else if let segment = CableSegment(decoding: bytes) {
            self = .segment(segment)
        } else if let acknowledgement = CableAcknowledgement(decoding: bytes) {
            self = .acknowledgement(acknowledgement)
        } else {
            return nil
        }
    }
}
