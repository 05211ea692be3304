/// The receiver's answer in a session: the SNR per band it measured (on the
/// transmission it answers), the byte ranges still missing, and once the file
/// is whole its digest (SHA-256, computed by the caller), which the sender
/// checks against its own before it says the transfer is done.
///
/// Bytes: "TNA1", transfer id (UInt32), file length (UInt64), flags (bit 0:
/// complete; bit 1: nothing since the last answer was lost to noise), 16 band SNRs (dB, one byte each, 0–255), 32 digest bytes
/// (zero until complete), the count of missing ranges (UInt16) and each as
/// two UInt64 (start, end); at most `maximumRanges`, the first ones.
public struct CableAcknowledgement: Sendable, Equatable {
    static let magic: [UInt8] = Array("TNA1".utf8)
    public static let maximumRanges = 32
    public static let digestBytes = 32

    public let transferID: UInt32
    public let totalBytes: Int
    public let bandSNRdB: [Double]
    public let missing: [Range<Int>]
    /// The digest of the whole file as received; nil until it is whole.
    public let digest: [UInt8]?
    /// No transmission since the receiver's last answer was lost (whole or in part) to noise: what is missing
    /// went to dropouts (energy gone, timing jumped, a sync never heard); a sender keeps its plan.
    public let lossesWereDropouts: Bool

    public var isComplete: Bool { digest != nil }

    public init(transferID: UInt32, totalBytes: Int, bandSNRdB: [Double], missing: [Range<Int>], digest: [UInt8]?,
                lossesWereDropouts: Bool = false) {
        precondition(bandSNRdB.count == CablePlan.bandCount && (digest?.count ?? Self.digestBytes) == Self.digestBytes)
        self.transferID = transferID
        self.totalBytes = totalBytes
        // As sent: whole dB from 0 to 255.
        self.bandSNRdB = bandSNRdB.map { $0.isFinite ? min(255, max(0, $0.rounded())) : 0 }
        self.missing = Array(missing.prefix(Self.maximumRanges))
        self.digest = digest
        self.lossesWereDropouts = lossesWereDropouts
    }

    public var encoded: [UInt8] {
        var bytes = Self.magic + CableFrameCoder.littleEndian(UInt64(transferID), count: 4)
            + CableFrameCoder.littleEndian(UInt64(totalBytes), count: 8) + [(digest == nil ? 0 : 1) | (lossesWereDropouts ? 2 : 0)]
        bytes += bandSNRdB.map { UInt8($0) }
        bytes += digest ?? [UInt8](repeating: 0, count: Self.digestBytes)
        bytes += CableFrameCoder.littleEndian(UInt64(missing.count), count: 2)
        for range in missing {
            bytes += CableFrameCoder.littleEndian(UInt64(range.lowerBound), count: 8)
            bytes += CableFrameCoder.littleEndian(UInt64(range.upperBound), count: 8)
        }
        return bytes
    }

    /// nil when `bytes` are not an acknowledgement or do not add up.
    public init?(decoding bytes: [UInt8]) {
        let fixed = 4 + 4 + 8 + 1 + CablePlan.bandCount + Self.digestBytes + 2
        guard bytes.count >= fixed, Array(bytes[0..<4]) == Self.magic, bytes[16] <= 3 else { return nil }
        let total = CableFrameCoder.readLittleEndian(bytes, at: 8, count: 8)
        let count = Int(CableFrameCoder.readLittleEndian(bytes, at: fixed - 2, count: 2))
        guard total < 1 << 48, count <= Self.maximumRanges, bytes.count == fixed + 16 * count else { return nil }
        var missing: [Range<Int>] = []
        for index in 0..<count {
            let low = CableFrameCoder.readLittleEndian(bytes, at: fixed + 16 * index, count: 8)
            let high = CableFrameCoder.readLittleEndian(bytes, at: fixed + 16 * index + 8, count: 8)
            guard low < high, high <= total else { return nil }
            missing.append(Int(low)..<Int(high))
        }
        let snr = bytes[17..<(17 + CablePlan.bandCount)].map { Double($0) }
        let digestStart = 17 + CablePlan.bandCount
        self.init(transferID: UInt32(CableFrameCoder.readLittleEndian(bytes, at: 4, count: 4)), totalBytes: Int(total),
                  bandSNRdB: snr, missing: missing,
                  digest: bytes[16] & 1 == 1 ? Array(bytes[digestStart..<(digestStart + Self.digestBytes)]) : nil,
                  lossesWereDropouts: bytes[16] & 2 == 2)
    }
}
