/// The header symbol's contents: the plan the data symbols follow and the
/// whole message's length and CRC-32, so the receiver knows the frame count
/// and can check the reassembled bytes. 32 bytes, its own CRC-32 last; sent
/// BPSK at rate 1/2, its coded bits repeated across every carrier.
public struct CableHeader: Sendable, Equatable {
    static let version: UInt8 = 2
    static let byteCount = 32
    static let codedBits = 2 * (8 * byteCount + ConvolutionalCode.tailBits)

    public let plan: CablePlan
    public let messageBytes: Int
    public let messageCRC: UInt32
    public let frameCount: Int

    var bytes: [UInt8] {
        var bytes: [UInt8] = [Self.version, plan.codeRate.rawValue, UInt8(CablePlan.symbolsPerFrame), UInt8(CablePlan.bandCount)]
        bytes += plan.packedBands
        bytes += CableFrameCoder.littleEndian(UInt64(messageBytes), count: 8)
        bytes += CableFrameCoder.littleEndian(UInt64(messageCRC), count: 4)
        bytes += CableFrameCoder.littleEndian(UInt64(frameCount), count: 4)
        return bytes + CableFrameCoder.littleEndian(UInt64(CRC32.checksum(bytes)), count: 4)
    }

    init(plan: CablePlan, messageBytes: Int, messageCRC: UInt32, frameCount: Int) {
        self.plan = plan
        self.messageBytes = messageBytes
        self.messageCRC = messageCRC
        self.frameCount = frameCount
    }

    /// nil when the CRC fails or the fields make no transmission this version sends.
    init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount,
              CRC32.checksum(bytes[0..<28]) == UInt32(CableFrameCoder.readLittleEndian(bytes, at: 28, count: 4)),
              bytes[0] == Self.version, Int(bytes[2]) == CablePlan.symbolsPerFrame, Int(bytes[3]) == CablePlan.bandCount,
              let plan = CablePlan(packedBands: bytes[4..<12], codeRate: bytes[1]) else { return nil }
        let length = CableFrameCoder.readLittleEndian(bytes, at: 12, count: 8)
        let frames = CableFrameCoder.readLittleEndian(bytes, at: 24, count: 4)
        guard length > 0, length < 1 << 40, frames > 0 else { return nil }
        self.init(plan: plan, messageBytes: Int(length), messageCRC: UInt32(CableFrameCoder.readLittleEndian(bytes, at: 20, count: 4)),
                  frameCount: Int(frames))
    }
}
