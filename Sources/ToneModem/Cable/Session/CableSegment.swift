/// A piece of a file sent as one cable transmission. A long transfer is cut
/// into segments so that each has its own sync and training: a dropout, a
/// burst or a re-timing on the path costs that segment, not the rest of the
/// file, and a segment is what a receiver counts as lost (and a session resends).
///
/// Its bytes inside the transmission: "TNS1", the transfer's id (UInt32),
/// the segment's byte offset in the file (UInt64), the file's length
/// (UInt64), then the data. The transmission's own CRC-32 covers them all.
public struct CableSegment: Sendable, Equatable {
    static let magic: [UInt8] = Array("TNS1".utf8)
    public static let overheadBytes = 4 + 4 + 8 + 8
    /// Frames per segment: about 2.9 s at 48 kHz with the file default plan
    /// (about 6 % of the air time goes to sync, training and header).
    public static let framesPerSegment = 32

    public let transferID: UInt32
    public let offset: Int
    public let totalBytes: Int
    public let data: ArraySlice<UInt8>

    public init(transferID: UInt32, offset: Int, totalBytes: Int, data: ArraySlice<UInt8>) {
        precondition(offset >= 0 && offset + data.count <= totalBytes)
        self.transferID = transferID
        self.offset = offset
        self.totalBytes = totalBytes
        self.data = data
    }

    /// The bytes one transmission carries.
    public var encoded: [UInt8] {
        Self.magic + CableFrameCoder.littleEndian(UInt64(transferID), count: 4)
            + CableFrameCoder.littleEndian(UInt64(offset), count: 8)
            + CableFrameCoder.littleEndian(UInt64(totalBytes), count: 8) + data
    }

    /// The segment in a received message; nil when it is not one (a plain
    /// message, `encode --profile cable`) or its fields do not add up.
    public init?(decoding message: [UInt8]) {
        guard message.count > Self.overheadBytes, Array(message[0..<4]) == Self.magic else { return nil }
        let offset = CableFrameCoder.readLittleEndian(message, at: 8, count: 8)
        let total = CableFrameCoder.readLittleEndian(message, at: 16, count: 8)
        let count = UInt64(message.count - Self.overheadBytes)
        guard total < 1 << 48, offset < total, count <= total - offset else { return nil }
        self.init(transferID: UInt32(CableFrameCoder.readLittleEndian(message, at: 4, count: 4)), offset: Int(offset),
                  totalBytes: Int(total), data: message[Self.overheadBytes...])
    }

    /// Where each segment of a file of `totalBytes` starts and ends, `dataBytes` each.
    public static func ranges(totalBytes: Int, dataBytes: Int) -> [Range<Int>] {
        ranges(covering: 0..<totalBytes, dataBytes: dataBytes)
    }

    /// The segments that carry the bytes `range` of a file, `dataBytes` each (the last one shorter).
    public static func ranges(covering range: Range<Int>, dataBytes: Int) -> [Range<Int>] {
        precondition(dataBytes > 0)
        return stride(from: range.lowerBound, to: range.upperBound, by: dataBytes).map { $0..<min(range.upperBound, $0 + dataBytes) }
    }

    /// File bytes one segment carries under `plan` (its `framesPerSegment`
    /// frames' payload less the segment's own fields): the one home of a
    /// segment's size, for the one-way stream and the session alike. nil
    /// when the plan leaves no room for a frame.
    public static func dataBytes(plan: CablePlan, carrierCount: Int) -> Int? {
        guard let payload = CableDataCoder(plan: plan, carrierCount: carrierCount)?.payloadBytes else { return nil }
        return framesPerSegment * payload - overheadBytes
    }
}
