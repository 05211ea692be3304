extension CableSegment {
    /// The intact parts of a segment that did not arrive whole: each intact
    /// frame's bytes as a segment of its own (its place in the file from the
    /// segment's fields), and where the whole segment ends in the file. nil
    /// when the reception is not a segment's, or its first frame (which holds
    /// the segment's fields) did not arrive: nothing can be placed then.
    /// Each part passed its frame's CRC-32 and sequence number; the file's
    /// digest checks the whole at the end.
    public static func parts(of reception: CableReception) -> (parts: [CableSegment], end: Int)? {
        guard reception.message == nil, let header = reception.header, let first = reception.intactPieces.first,
              first.messageOffset == 0, first.bytes.count >= overheadBytes, Array(first.bytes[0..<4]) == magic else { return nil }
        let offset = CableFrameCoder.readLittleEndian(first.bytes, at: 8, count: 8)
        let total = CableFrameCoder.readLittleEndian(first.bytes, at: 16, count: 8)
        let dataBytes = UInt64(header.messageBytes - overheadBytes)
        guard header.messageBytes > overheadBytes, total < 1 << 48, offset < total, dataBytes <= total - offset else { return nil }
        let transferID = UInt32(CableFrameCoder.readLittleEndian(first.bytes, at: 4, count: 4))
        var parts: [CableSegment] = []
        for piece in reception.intactPieces {
            let skipped = max(0, overheadBytes - piece.messageOffset)
            guard piece.bytes.count > skipped, piece.messageOffset + piece.bytes.count <= header.messageBytes else { continue }
            let start = Int(offset) + piece.messageOffset + skipped - overheadBytes
            parts.append(CableSegment(transferID: transferID, offset: start, totalBytes: Int(total), data: piece.bytes[skipped...]))
        }
        return (parts, Int(offset + dataBytes))
    }
}
