/// The geometry of one profile's frame, in seconds and hertz, independent of
/// the sample rate (a sender at 44.1 kHz talks to a receiver at 96 kHz).
///
/// A frame is: an up-chirp and a down-chirp (the preamble: detection, timing
/// and clock offset), a short gap, a reference symbol, then data symbols.
/// Each symbol is `subcarrierCount` sinusoids spaced `1/symbolSeconds` apart
/// with differential phase (DBPSK or DQPSK) against the symbol before, a
/// cyclic guard of `guardSeconds` in front and raised-cosine edges of
/// `taperSeconds` that overlap the neighbours.
///
/// A profile with `equalizerSeconds > 0` relies on the receiver undoing the
/// room (`ChannelEqualizer`): its symbols need no clean guard, so long symbols
/// with many subcarriers fit a narrow band at a high rate.
public struct ModemParameters: Sendable {
    public let profile: ModemProfile
    /// Band edges: all energy of a transmission lies between them.
    public let lowHz: Double
    public let highHz: Double
    public let chirpLowHz: Double
    public let chirpHighHz: Double
    /// Duration of each of the two chirps.
    public let chirpSeconds: Double
    /// Silence between the preamble and the first symbol.
    public let gapSeconds: Double
    /// Frequency of subcarrier 0, a multiple of the subcarrier spacing.
    public let firstSubcarrierHz: Double
    public let subcarrierCount: Int
    /// The useful (FFT) part of a symbol; subcarrier spacing is its inverse.
    public let symbolSeconds: Double
    /// Cyclic prefix, including the rising taper.
    public let guardSeconds: Double
    /// Raised-cosine edge of each symbol and chirp.
    public let taperSeconds: Double
    /// 1 (DBPSK) or 2 (DQPSK).
    public let bitsPerSubcarrier: Int
    /// Rate-2/3 punctured code instead of rate 1/2.
    public let punctured: Bool
    /// Data symbols beyond what rate 1/2 needs; they carry more parity (a lower code rate).
    public var extraDataSymbols: Int = 0
    /// Length of room response the receiver estimates and undoes when plain
    /// detection fails; 0: none. The receiver also waits this long after a frame.
    public var equalizerSeconds: Double = 0

    /// Message bytes carried per frame.
    public static let payloadBytesPerFrame = 32
    /// Header (message id, frame index, frame count, payload length) plus CRC-32.
    public static let overheadBytes = 5 + 4
    static var informationBits: Int { 8 * (payloadBytesPerFrame + overheadBytes) }

    public var subcarrierSpacingHz: Double { 1 / symbolSeconds }
    public var symbolPeriodSeconds: Double { symbolSeconds + guardSeconds }
    public var chirpCenterHz: Double { (chirpLowHz + chirpHighHz) / 2 }
    /// Chirp sweep rate in Hz per second (magnitude).
    public var chirpRateHzPerSecond: Double { (chirpHighHz - chirpLowHz) / chirpSeconds }
    /// How far apart (in seconds, beyond `chirpSeconds`) the down-chirp arrives
    /// after the up-chirp per unit of clock offset: a scaled frequency shifts a
    /// chirp's matched-filter peak in time, the two chirps in opposite directions.
    public var clockOffsetSensitivitySeconds: Double { 2 * chirpCenterHz / chirpRateHzPerSecond - chirpSeconds }

    /// Which outputs of the rate-1/3 mother code are sent.
    var codePattern: [Bool] {
        ConvolutionalCode.pattern(informationBits: Self.informationBits, punctured: punctured,
                                  slotCount: dataSymbolCount * bitsPerSymbol)
    }

    /// Coded bits per frame after puncturing (tail included).
    public var codedBits: Int { codePattern.filter { $0 }.count }

    public var bitsPerSymbol: Int { subcarrierCount * bitsPerSubcarrier }
    /// Data symbols per frame (the reference symbol not counted).
    public var dataSymbolCount: Int {
        let steps = Self.informationBits + ConvolutionalCode.tailBits
        let baseBits = punctured ? steps + (steps + 1) / 2 : 2 * steps
        return (baseBits + bitsPerSymbol - 1) / bitsPerSymbol + extraDataSymbols
    }

    /// Sender time at which symbol `index` (0 = reference) starts, guard included.
    public func symbolStartSeconds(_ index: Int) -> Double {
        2 * chirpSeconds + gapSeconds + Double(index) * symbolPeriodSeconds
    }

    /// Duration of one frame on air, preamble included, tapers included.
    public var frameSeconds: Double { symbolStartSeconds(dataSymbolCount + 1) + taperSeconds }

    /// Frequency of subcarrier `index`.
    public func subcarrierHz(_ index: Int) -> Double { firstSubcarrierHz + Double(index) * subcarrierSpacingHz }

    /// A sentence saying why this profile cannot run at `sampleRateHz`, or nil.
    public func problem(sampleRateHz: Double) -> String? {
        guard sampleRateHz.isFinite, sampleRateHz > 0 else { return "the sample rate must be positive" }
        let nyquistHz = sampleRateHz / 2
        if highHz >= nyquistHz * 0.98 {
            return "profile \(profile.rawValue) needs energy up to \(Int(highHz)) Hz, above what "
                + "\(Int(sampleRateHz)) Hz sampling carries; use a rate of at least \(Int((highHz / 0.98 * 2 / 100).rounded(.up)) * 100) Hz"
        }
        if sampleRateHz > 400_000 { return "sample rates above 400 kHz are not supported" }
        return nil
    }

    /// Newman phases for the reference symbol: low crest factor.
    func referencePhase(_ subcarrier: Int) -> Double {
        Double.pi * Double(subcarrier * subcarrier) / Double(subcarrierCount)
    }
}
