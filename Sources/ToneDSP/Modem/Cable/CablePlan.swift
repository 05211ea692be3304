/// What a cable transmission sends on each band: the QAM order (bits per
/// carrier, 0 = band unused) of each of `bandCount` equal bands of carriers,
/// and the code rate. The adaptive hook: `init(bandSNRdB:)` chooses them from
/// the per-band SNR a probe (the training symbols) measured.
public struct CablePlan: Sendable, Equatable {
    public enum CodeRate: UInt8, Sendable, CaseIterable {
        case half = 1, twoThirds = 2, threeQuarters = 3

        public var value: Double {
            switch self {
            case .half: 0.5
            case .twoThirds: 2.0 / 3
            case .threeQuarters: 0.75
            }
        }
    }

    public static let bandCount = 16
    /// The largest QAM: 16384 points.
    public static let maximumBits = 14
    /// OFDM symbols per frame (one CRC, one Viterbi block).
    public static let symbolsPerFrame = 2

    /// Bits per carrier in each band: 0, 2, 4 … 14.
    public let bandBits: [Int]
    public let codeRate: CodeRate

    public init(bandBits: [Int], codeRate: CodeRate) {
        precondition(bandBits.count == Self.bandCount)
        precondition(bandBits.allSatisfy { $0 >= 0 && $0 <= Self.maximumBits && $0 % 2 == 0 })
        self.bandBits = bandBits
        self.codeRate = codeRate
    }

    /// Offline, with no return path: 16384-QAM everywhere at rate 3/4 (it
    /// needs about 47 dB of SNR), what a float or 24-bit file (or a digital
    /// JACK path) carries at any level down to about −40 dBFS.
    public static let fileDefault = CablePlan(bandBits: Array(repeating: maximumBits, count: bandCount), codeRate: .threeQuarters)

    /// SNR (dB, per carrier after equalization) a band needs for `bits` per carrier at `rate`.
    public static func requiredSNRdB(bits: Int, rate: CodeRate) -> Double {
        let perBit = 3.0 * Double(bits)
        switch rate {
        case .half: return perBit + 1
        case .twoThirds: return perBit + 3
        case .threeQuarters: return perBit + 4.5
        }
    }

    /// The plan for measured per-band SNRs: rate 1/2 when the median band is
    /// below 25 dB, else 3/4; each band the largest QAM its SNR carries.
    public init(bandSNRdB: [Double]) {
        precondition(bandSNRdB.count == Self.bandCount)
        let median = bandSNRdB.sorted()[Self.bandCount / 2]
        let rate: CodeRate = median < 25 ? .half : .threeQuarters
        let bits = bandSNRdB.map { snr in
            stride(from: Self.maximumBits, through: 2, by: -2).first { Self.requiredSNRdB(bits: $0, rate: rate) <= snr } ?? 0
        }
        // At least one band carries data: the best one at QPSK.
        if bits.allSatisfy({ $0 == 0 }), let best = bandSNRdB.indices.max(by: { bandSNRdB[$0] < bandSNRdB[$1] }) {
            var forced = bits
            forced[best] = 2
            self.init(bandBits: forced, codeRate: rate)
        } else {
            self.init(bandBits: bits, codeRate: rate)
        }
    }

    /// Band of carrier `index` among `carrierCount`.
    public static func band(ofCarrier index: Int, carrierCount: Int) -> Int { index * bandCount / carrierCount }

    /// Bits per carrier, carrier by carrier.
    public func carrierBits(carrierCount: Int) -> [Int] {
        (0..<carrierCount).map { bandBits[Self.band(ofCarrier: $0, carrierCount: carrierCount)] }
    }

    /// Coded bits one frame carries.
    public func codedBitsPerFrame(carrierCount: Int) -> Int {
        Self.symbolsPerFrame * carrierBits(carrierCount: carrierCount).reduce(0, +)
    }

    /// The two nibbles per byte of the header: bits / 2 of each band.
    var packedBands: [UInt8] {
        stride(from: 0, to: Self.bandCount, by: 2).map { UInt8(bandBits[$0] / 2) | UInt8(bandBits[$0 + 1] / 2) << 4 }
    }

    /// The plan from its header bytes; nil when they make no plan.
    init?(packedBands: ArraySlice<UInt8>, codeRate: UInt8) {
        guard packedBands.count == Self.bandCount / 2, let rate = CodeRate(rawValue: codeRate) else { return nil }
        let bits = packedBands.flatMap { [Int($0 & 0xF) * 2, Int($0 >> 4) * 2] }
        guard bits.allSatisfy({ $0 <= Self.maximumBits }), bits.contains(where: { $0 > 0 }) else { return nil }
        self.init(bandBits: bits, codeRate: rate)
    }
}
