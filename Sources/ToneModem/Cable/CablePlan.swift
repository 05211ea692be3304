#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a cable transmission sends on each band: the QAM order (bits per
/// carrier, 0 = band unused) of each of `bandCount` equal bands of carriers,
/// and the code rate of the LDPC code that protects the two lowest levels of
/// each axis (`CableQAM`). The adaptive hook: `init(bandSNRdB:)` chooses
/// them from the per-band SNR a probe (the training symbols) measured.
public struct CablePlan: Sendable, Equatable {
    /// The LDPC code's rate: each parity check sums `rawValue` information
    /// bits (the IRA code's check degree), so the rate is a / (a + 3).
    public struct CodeRate: RawRepresentable, Sendable, Equatable, Hashable, CaseIterable {
        public let rawValue: UInt8
        public init?(rawValue: UInt8) {
            guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
            self.rawValue = rawValue
        }
        private init(checkDegree: UInt8) { rawValue = checkDegree }

        public static let quarter = CodeRate(checkDegree: 1)
        public static let twoFifths = CodeRate(checkDegree: 2)
        public static let half = CodeRate(checkDegree: 3)
        public static let fourSevenths = CodeRate(checkDegree: 4)
        public static let fiveEighths = CodeRate(checkDegree: 5)
        public static let twoThirds = CodeRate(checkDegree: 6)
        public static let eightElevenths = CodeRate(checkDegree: 8)
        public static let tenThirteenths = CodeRate(checkDegree: 10)
        public static let threeQuarters = CodeRate(checkDegree: 9)
        public static let fourFifths = CodeRate(checkDegree: 12)
        public static let fiveSixths = CodeRate(checkDegree: 15)
        public static let sixSevenths = CodeRate(checkDegree: 18)
        public static let eightNinths = CodeRate(checkDegree: 24)
        public static let tenElevenths = CodeRate(checkDegree: 30)
        public static let allCases: [CodeRate] = [
            .quarter, .twoFifths, .half, .fourSevenths, .fiveEighths, .twoThirds, .eightElevenths, .threeQuarters,
            .tenThirteenths, .fourFifths, .fiveSixths, .sixSevenths, .eightNinths, .tenElevenths,
        ]

        public var value: Double { Double(rawValue) / Double(Int(rawValue) + IRACode.informationDegree) }
    }

    public static let bandCount = 16
    /// The largest QAM: 2²⁴ points (4096 levels an axis), for float paths.
    public static let maximumBits = 24
    /// OFDM symbols per frame (one CRC, one LDPC block).
    public static let symbolsPerFrame = 2

    /// Bits per carrier in each band: 0, 2, 4 … 24.
    public let bandBits: [Int]
    public let codeRate: CodeRate

    public init(bandBits: [Int], codeRate: CodeRate) {
        precondition(bandBits.count == Self.bandCount)
        precondition(bandBits.allSatisfy { $0 >= 0 && $0 <= Self.maximumBits && $0 % 2 == 0 })
        self.bandBits = bandBits
        self.codeRate = codeRate
    }

    /// Offline, with no return path: 65536-QAM everywhere at rate 8/9 (it
    /// needs about 52 dB of SNR), what a float or 24-bit file (or a digital
    /// JACK path) carries at any level down to about −40 dBFS.
    public static let fileDefault = CablePlan(bandBits: Array(repeating: 16, count: bandCount), codeRate: .eightNinths)

    /// Gap of the LDPC code to a real channel's capacity (dB, frames of a few thousand bits, FER about 1e-3,
    /// with the channel estimate's noise and the demapper's loss).
    static let codeGapDB = 2.6
    /// Levels sent uncoded need their half-distance this many noise deviations away (error ~1e-10 a bit).
    static let uncodedDeviations = 6.4
    /// Information bits a plan needs, summed over the bands' carrier sizes, for a frame of more than its overhead.
    static let minimumBitsPerBandCarrier = 3.0
    /// Margin for the probe's own error (its noise is measured on about 50 carriers a band).
    static let probeMarginDB = 0.7

    /// SNR (dB, per carrier after equalization) a band needs for `bits` per carrier at `rate`.
    public static func requiredSNRdB(bits: Int, rate: CodeRate) -> Double {
        let axisBits = bits / 2
        guard axisBits > 0 else { return -.infinity }
        let coded = min(axisBits, CableQAM.codedLevels)
        let levels = Double(1 << axisBits)
        let codedLevels = Double(1 << coded)
        // The coded levels: a PAM of 2^coded points at rate R within codeGapDB of capacity.
        let codedSNR = (pow(2, 2 * Double(coded) * rate.value) - 1) * pow(10, codeGapDB / 10)
        var sigmaSquared = (codedLevels * codedLevels - 1) / 3 / codedSNR
        if axisBits > coded {
            // The uncoded levels: points 2^(coded + 1) apart, half-distance 2^coded.
            sigmaSquared = min(sigmaSquared, pow(codedLevels / uncodedDeviations, 2))
        }
        return 10 * log10((levels * levels - 1) / 3 / sigmaSquared)
    }

    /// Information bits a carrier of `bits` carries at `rate`.
    static func informationBits(bits: Int, rate: CodeRate) -> Double {
        let coded = min(bits / 2, CableQAM.codedLevels)
        return Double(bits - 2 * coded) + 2 * Double(coded) * rate.value
    }

    /// The plan for measured per-band SNRs: for every code rate, each band the
    /// largest QAM its SNR carries; then the rate that carries the most.
    public init(bandSNRdB: [Double]) {
        precondition(bandSNRdB.count == Self.bandCount)
        var best: (bits: [Int], rate: CodeRate, total: Double)?
        for rate in CodeRate.allCases {
            let bits = bandSNRdB.map { snr in
                stride(from: Self.maximumBits, through: 2, by: -2).first {
                    Self.requiredSNRdB(bits: $0, rate: rate) <= snr - Self.probeMarginDB
                } ?? 0
            }
            let total = bits.reduce(0.0) { $0 + Self.informationBits(bits: $1, rate: rate) }
            // A plan must leave a frame room for more than its overhead (about 50 carriers a band, 2 symbols).
            if total >= Self.minimumBitsPerBandCarrier, total > (best?.total ?? 0) { best = (bits, rate, total) }
        }
        if let best {
            self.init(bandBits: best.bits, codeRate: best.rate)
        } else {
            // Nothing carries data at the measured SNR: the most robust plan, QPSK everywhere at rate 1/4.
            self.init(bandBits: Array(repeating: 2, count: Self.bandCount), codeRate: .quarter)
        }
    }

    /// Band of carrier `index` among `carrierCount`.
    public static func band(ofCarrier index: Int, carrierCount: Int) -> Int { index * bandCount / carrierCount }

    /// Bits per carrier, carrier by carrier.
    public func carrierBits(carrierCount: Int) -> [Int] {
        (0..<carrierCount).map { bandBits[Self.band(ofCarrier: $0, carrierCount: carrierCount)] }
    }

    /// Coded bits one frame carries (every level, coded by the LDPC code or sent as they are).
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
