/// One frame's bytes ↔ its coded, interleaved bits: the K = 9 convolutional
/// code (`ConvolutionalCode`) punctured to the plan's rate, padded to the
/// frame's room and spread by a fixed pseudo-random permutation (a notch or a
/// tilt of the channel then costs scattered bits, not a burst).
///
/// A data frame's bytes: sequence number (UInt32), payload length (UInt16),
/// the payload (zero-padded to `payloadBytes`), CRC-32 of all before it.
/// Worker only: the code reuses its buffers.
final class CableFrameCoder {
    static let frameOverheadBytes = 4 + 2 + 4
    let informationBytes: Int
    let slotCount: Int
    private let code: ConvolutionalCode
    /// `permutation[i]`: the slot coded bit `i` goes to.
    private let permutation: [Int]
    private var soft: [Float]

    var payloadBytes: Int { informationBytes - Self.frameOverheadBytes }

    /// - Parameters:
    ///   - slotCount: coded bits the frame has room for.
    ///   - informationBytes: nil: as many as fit.
    init?(slotCount: Int, rate: CablePlan.CodeRate, informationBytes: Int? = nil) {
        var bytes = informationBytes ?? Int(Double(slotCount) * rate.value / 8)
        while bytes > 0, Self.pattern(informationBits: 8 * bytes, rate: rate).filter({ $0 }).count > slotCount { bytes -= 1 }
        guard bytes > Self.frameOverheadBytes || (informationBytes != nil && bytes == informationBytes) else { return nil }
        self.informationBytes = bytes
        self.slotCount = slotCount
        code = ConvolutionalCode(pattern: Self.pattern(informationBits: 8 * bytes, rate: rate))
        var order = Array(0..<slotCount)
        var state: UInt64 = 0x5DEE_CE66_D1CE_CAB1 ^ UInt64(slotCount)
        for index in stride(from: slotCount - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let other = Int((state >> 33) % UInt64(index + 1))
            order.swapAt(index, other)
        }
        permutation = order
        soft = [Float](repeating: 0, count: code.codedBits)
    }

    /// Which outputs of the rate-1/3 mother code are sent: rate 1/2 (or less) sends the
    /// first two, up to 2/3 drops the second of every other step, above it
    /// (1 1), (1 0), (0 1) over three steps.
    static func pattern(informationBits: Int, rate: CablePlan.CodeRate) -> [Bool] {
        let steps = informationBits + ConvolutionalCode.tailBits
        var sent = [Bool](repeating: false, count: 3 * steps)
        for step in 0..<steps {
            if rate.value <= 0.5 {
                (sent[3 * step], sent[3 * step + 1]) = (true, true)
            } else if rate.value <= 2.0 / 3 {
                (sent[3 * step], sent[3 * step + 1]) = (true, step % 2 == 0)
            } else {
                (sent[3 * step], sent[3 * step + 1]) = (step % 3 != 2, step % 3 != 1)
            }
        }
        return sent
    }

    /// `slotCount` bits (0 or 1) for `bytes` (`informationBytes` of them).
    func encode(_ bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count == informationBytes)
        var bits = [UInt8](repeating: 0, count: 8 * bytes.count)
        for (index, byte) in bytes.enumerated() {
            for bit in 0..<8 { bits[8 * index + bit] = (byte >> UInt8(7 - bit)) & 1 }
        }
        let coded = code.encode(bits)
        var slots = [UInt8](repeating: 0, count: slotCount)
        for (index, bit) in coded.enumerated() { slots[permutation[index]] = bit }
        return slots
    }

    /// The bytes from `slotCount` soft values (positive: bit 0).
    func decode(_ slots: [Float]) -> [UInt8] {
        precondition(slots.count == slotCount)
        for index in 0..<soft.count { soft[index] = slots[permutation[index]] }
        let bits = soft.withUnsafeBufferPointer { code.decode($0) }
        return (0..<informationBytes).map { index in
            (0..<8).reduce(UInt8(0)) { $0 << 1 | bits[8 * index + $1] }
        }
    }

    /// A data frame's information bytes.
    func frameBytes(sequence: UInt32, payload: ArraySlice<UInt8>) -> [UInt8] {
        Self.frameBytes(sequence: sequence, payload: payload, payloadBytes: payloadBytes)
    }

    /// A data frame's information bytes, for frames of `payloadBytes` payload bytes.
    static func frameBytes(sequence: UInt32, payload: ArraySlice<UInt8>, payloadBytes: Int) -> [UInt8] {
        precondition(payload.count <= payloadBytes)
        var bytes = Self.littleEndian(UInt64(sequence), count: 4) + Self.littleEndian(UInt64(payload.count), count: 2)
        bytes += payload
        bytes += [UInt8](repeating: 0, count: payloadBytes - payload.count)
        return bytes + Self.littleEndian(UInt64(CRC32.checksum(bytes)), count: 4)
    }

    /// Sequence number and payload of a decoded frame; nil when its CRC fails or its length is impossible.
    func parseFrame(_ bytes: [UInt8]) -> (sequence: UInt32, payload: ArraySlice<UInt8>)? {
        Self.parseFrame(bytes, payloadBytes: payloadBytes)
    }

    /// `parseFrame` for frames of `payloadBytes` payload bytes.
    static func parseFrame(_ bytes: [UInt8], payloadBytes: Int) -> (sequence: UInt32, payload: ArraySlice<UInt8>)? {
        let body = bytes[0..<(bytes.count - 4)]
        guard CRC32.checksum(body) == UInt32(Self.readLittleEndian(bytes, at: bytes.count - 4, count: 4)) else { return nil }
        let length = Int(Self.readLittleEndian(bytes, at: 4, count: 2))
        guard length <= payloadBytes else { return nil }
        return (UInt32(Self.readLittleEndian(bytes, at: 0, count: 4)), bytes[6..<(6 + length)])
    }

    static func littleEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
    }

    static func readLittleEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << UInt64(8 * $1) }
    }
}
