extension CableTransferAssembler {
    /// What one transmission did to a one-way transfer.
    public enum Heard: Sendable, Equatable {
        /// A whole message that is not a segment (`encode --profile cable`, played): a message of its own.
        case plain([UInt8])
        /// Nothing usable (damaged, cut off, its header unread): counted.
        case lost
        /// A segment and what it did; `abandoned`: the line for the incomplete
        /// transfer that a new transfer's first segment replaced.
        case segment(CableSegment, Outcome, abandoned: String?)
    }

    /// Takes one transmission as heard on a one-way path (`receive`, `decode`).
    /// A new transfer's first segment (offset 0, another id) replaces one left
    /// incomplete: a sender that died is followed by the next, never mixed with it.
    public mutating func take(_ reception: CableReception) -> Heard {
        guard let message = reception.message else {
            countLost(cutOff: reception.truncatedFrames > 0 || reception.endsBeforeHeader)
            return .lost
        }
        guard let segment = CableSegment(decoding: message) else { return .plain(message) }
        var abandoned: String?
        if let transferID, segment.transferID != transferID, segment.offset == 0, !isComplete {
            abandoned = incompleteSummary
            self = CableTransferAssembler()
        }
        return .segment(segment, take(segment), abandoned: abandoned)
    }

    /// Whether a transfer was heard (or a transmission lost) and is not whole.
    public var isPending: Bool { !isComplete && (transferID != nil || lostSegments > 0) }

    /// One line for a transfer that is not whole: what arrived, what is
    /// missing and why, what was lost; nil when nothing is pending.
    public var incompleteSummary: String? {
        guard isPending else { return nil }
        let lost = "\(lostSegments) transmission(s) lost" + (cutOffSegments > 0 ? " (\(cutOffSegments) cut off)" : "")
        guard let transferID else { return "cable: no segment arrived intact; \(lost); nothing delivered" }
        var line = "cable: transfer \(String(transferID, radix: 16)) incomplete: \(receivedBytes) of \(totalBytes) bytes "
            + "in \(addedSegments) segment(s), \(totalBytes - receivedBytes) missing"
        if let first = missing.first, first.lowerBound == 0, (firstOffset ?? 0) > 0, lostBeforeFirst == 0 {
            line += " (its first \(first.count) bytes were never heard: a receiver started late?)"
        }
        line += "; " + lost
        if foreignSegments > 0 { line += ", \(foreignSegments) segment(s) of other transfers" }
        return line + "; nothing delivered"
    }
}
