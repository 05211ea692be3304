/// The receiving side of a session (`receive --profile cable` with a
/// return path), as a pure state machine. Each transmission that ended goes
/// to `heard` (its session message and the SNR per band measured on it, or
/// nil when it was lost); the actions say what to answer and when the file
/// is whole. It answers a probe at once (the SNR the sender plans with), the
/// last segment of a round and every poll (the ranges still missing, or the
/// file's digest once it is whole). It follows one transfer at a time; a new
/// probe starts the next. The sender's closing word (`finished`) says the
/// transfer is confirmed.
public struct CableSessionReceiver: Sendable {
    public enum Action: Sendable, Equatable {
        /// Send this answer as one cable transmission.
        case transmit(CableSessionMessage)
        /// The whole file, delivered once.
        case delivered([UInt8])
        /// The sender confirmed the digest of the transfer followed: nothing more will come for it.
        case closed
    }

    /// The digest of a whole file (SHA-256; the caller's).
    let digestOf: @Sendable ([UInt8]) -> [UInt8]
    public private(set) var assembler = CableTransferAssembler()
    /// The transfer followed (a probe, a poll or the first segment chose it).
    public private(set) var followed: UInt32?
    private var total = 0
    private var delivered = false
    private var digest: [UInt8]?
    private var lastSNRdB = [Double](repeating: 0, count: CablePlan.bandCount)
    /// Transmissions heard that could not be used (damaged, cut off, another transfer's).
    public private(set) var lostTransmissions = 0
    /// Segments that arrived in part: their intact frames kept.
    public private(set) var partialTransmissions = 0
    /// Transmissions lost (whole or in part) since the last answer: to dropouts, to noise.
    private var dropoutLosses = 0
    private var noiseLosses = 0

    public init(digest: @escaping @Sendable ([UInt8]) -> [UInt8]) { digestOf = digest }

    /// One transmission that ended: its message (nil: lost) and the SNR per band measured on it;
    /// `lostToDropout`: a lost one's frames were lost to a dropout (`CableReception.lostOnlyToDropouts`), not noise.
    public mutating func heard(_ message: CableSessionMessage?, bandSNRdB: [Double], lostToDropout: Bool = false) -> [Action] {
        // A lost transmission's SNR is its training's alone (no frame decoded to show the data's): not reported.
        if message != nil, bandSNRdB.count == CablePlan.bandCount { lastSNRdB = bandSNRdB }
        switch message {
        case nil:
            lostTransmissions += 1
            countLoss(lostToDropout)
            return []
        case .probe(let id)?:
            if id != followed { follow(id, totalBytes: 0) }
            return [answer()]
        case .poll(let id, let totalBytes)?:
            if id != followed { follow(id, totalBytes: totalBytes) }
            if total == 0 { total = totalBytes }
            return [answer()]
        case .segment(let segment)?:
            return take([segment], end: segment.offset + segment.data.count)
        case .finished(let id)?:
            return id == followed && delivered ? [.closed] : []
        case .acknowledgement?:
            return []
        }
    }

    /// A segment that did not arrive whole: its intact parts (`CableSegment.parts(of:)`), where the whole
    /// segment ends in the file, and the SNR per band measured on it. The parts are kept; what is missing of
    /// the segment is missing from the file (the sender resends only that), and a damaged last segment of a
    /// round still draws the answer.
    public mutating func heard(parts: [CableSegment], end: Int, bandSNRdB: [Double], lostToDropout: Bool = false) -> [Action] {
        if bandSNRdB.count == CablePlan.bandCount { lastSNRdB = bandSNRdB }
        countLoss(lostToDropout)
        guard !parts.isEmpty else {
            lostTransmissions += 1
            return []
        }
        partialTransmissions += 1
        return take(parts, end: end)
    }

    /// Segments (whole, or the parts of one) ending the segment at file byte `end`.
    private mutating func take(_ segments: [CableSegment], end: Int) -> [Action] {
        guard let first = segments.first else { return [] }
        if followed == nil || (first.transferID == followed && total == 0) {
            if first.transferID != followed { follow(first.transferID, totalBytes: first.totalBytes) }
            total = first.totalBytes
        }
        guard first.transferID == followed, first.totalBytes == total else {
            lostTransmissions += 1
            return []
        }
        var actions: [Action] = []
        for segment in segments {
            if case .added(complete: true) = assembler.take(segment), !delivered, let file = assembler.file {
                delivered = true
                digest = digestOf(file)
                actions.append(.delivered(file))
            }
        }
        // The round's last segment (or the file whole): answer what is still missing.
        if delivered || end == total { actions.append(answer()) }
        return actions
    }

    private mutating func follow(_ id: UInt32, totalBytes: Int) {
        followed = id
        total = totalBytes
        assembler = CableTransferAssembler()
        delivered = false
        digest = nil
    }

    private mutating func countLoss(_ toDropout: Bool) {
        if toDropout { dropoutLosses += 1 } else { noiseLosses += 1 }
    }

    private mutating func answer() -> Action {
        // A transmission whose sync a dropout hit is never heard: losses unseen are dropouts; noise shows in frames.
        let dropoutsOnly = noiseLosses == 0
        (dropoutLosses, noiseLosses) = (0, 0)
        let missing = total == 0 ? [] : (assembler.transferID == nil ? [0..<total] : assembler.missing)
        return .transmit(.acknowledgement(CableAcknowledgement(transferID: followed ?? 0, totalBytes: total, bandSNRdB: lastSNRdB,
                                                                 missing: missing, digest: digest, lossesWereDropouts: dropoutsOnly)))
    }
}
