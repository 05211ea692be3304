/// One frame of a message: a 5-byte header, up to 32 payload bytes (padded
/// with zeros on air) and a CRC-32 over header and padded payload.
public struct ModemFrame: Equatable, Sendable {
    public let messageID: UInt16
    /// Zero-based index of this frame within its message.
    public let index: Int
    /// Frames in the message (1…255).
    public let count: Int
    public let payload: [UInt8]

    /// Longest message: 255 frames of 32 bytes.
    public static let maximumMessageBytes = 255 * ModemParameters.payloadBytesPerFrame
    static let byteCount = ModemParameters.payloadBytesPerFrame + ModemParameters.overheadBytes

    public init(messageID: UInt16, index: Int, count: Int, payload: [UInt8]) {
        self.messageID = messageID
        self.index = index
        self.count = count
        self.payload = payload
    }

    /// Splits a message into frames. An empty message is one frame with no
    /// payload; one longer than `maximumMessageBytes` throws (the frame count
    /// is one byte on air). The library's one check of the message length.
    public static func frames(of message: [UInt8], messageID: UInt16) throws(ModemModulator.SetupError) -> [ModemFrame] {
        guard message.count <= maximumMessageBytes else {
            throw .invalid("a message holds at most \(maximumMessageBytes) bytes; this one has \(message.count)")
        }
        let size = ModemParameters.payloadBytesPerFrame
        let count = max(1, (message.count + size - 1) / size)
        return (0..<count).map { index in
            let start = index * size
            let end = min(message.count, start + size)
            return ModemFrame(messageID: messageID, index: index, count: count, payload: Array(message[start..<end]))
        }
    }

    /// The bytes on air (before coding).
    public var bytes: [UInt8] {
        var out: [UInt8] = [UInt8(messageID >> 8), UInt8(messageID & 0xFF), UInt8(index), UInt8(count),
                            UInt8(payload.count)]
        out += payload
        out += [UInt8](repeating: 0, count: ModemParameters.payloadBytesPerFrame - payload.count)
        let crc = CRC32.checksum(out)
        out += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        return out
    }

    /// Parses decoded bytes; nil when the CRC or the header is inconsistent.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        let body = bytes[0..<(Self.byteCount - 4)]
        let crc = UInt32(bytes[Self.byteCount - 4]) << 24 | UInt32(bytes[Self.byteCount - 3]) << 16
            | UInt32(bytes[Self.byteCount - 2]) << 8 | UInt32(bytes[Self.byteCount - 1])
        guard CRC32.checksum(body) == crc else { return nil }
        let index = Int(bytes[2]), count = Int(bytes[3]), length = Int(bytes[4])
        let size = ModemParameters.payloadBytesPerFrame
        guard count >= 1, index < count, length <= size else { return nil }
        // Only the last frame may be short; padding must be zeros.
        if index < count - 1, length != size { return nil }
        guard bytes[(5 + length)..<(5 + size)].allSatisfy({ $0 == 0 }) else { return nil }
        self.init(messageID: UInt16(bytes[0]) << 8 | UInt16(bytes[1]), index: index, count: count,
                  payload: Array(bytes[5..<(5 + length)]))
    }

    /// Bits, most significant first.
    static func bits(of bytes: [UInt8]) -> [UInt8] {
        bytes.flatMap { byte in (0..<8).map { UInt8((byte >> (7 - $0)) & 1) } }
    }

    static func bytes(of bits: [UInt8]) -> [UInt8] {
        stride(from: 0, to: bits.count - 7, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { $0 << 1 | bits[start + $1] }
        }
    }
}
