import ToneDSP

/// One data frame's bytes ↔ its OFDM symbols' carrier values under a plan:
/// the frame's first bits are the information bits of an IRA LDPC code
/// (`IRACode`) whose codeword fills the coded levels of every carrier
/// (spread by a fixed pseudo-random permutation), the rest ride the upper,
/// uncoded levels (`CableQAM`). Frame bytes as `CableFrameCoder` lays them out
/// (sequence number, length, payload, CRC-32), whitened by a fixed
/// pseudo-random sequence first (a run of equal bytes would otherwise put every
/// carrier on the same point: a peak that costs the whole transmission level).
///
/// Worker only: the code reuses its buffers.
final class CableDataCoder {
    let carrierBits: [Int]
    let informationBytes: Int
    var payloadBytes: Int { informationBytes - CableFrameCoder.frameOverheadBytes }
    private let code: IRACode
    /// `permutation[i]`: the coded slot codeword bit `i` goes to.
    private let permutation: [Int]
    private let codedSlots: Int
    private let uncodedSlots: Int
    /// XORed onto the frame's bits.
    private let whitening: [UInt8]

    /// nil when the plan leaves no room for a frame.
    init?(plan: CablePlan, carrierCount: Int) {
        carrierBits = plan.carrierBits(carrierCount: carrierCount)
        let perSymbolCoded = carrierBits.reduce(0) { $0 + 2 * CableQAM.codedBits(axisOf: $1) }
        let perSymbolUncoded = carrierBits.reduce(0) { $0 + $1 } - perSymbolCoded
        codedSlots = CablePlan.symbolsPerFrame * perSymbolCoded
        uncodedSlots = CablePlan.symbolsPerFrame * perSymbolUncoded
        let target = Int(Double(codedSlots) * plan.codeRate.value)
        let bytes = (target + uncodedSlots) / 8
        guard bytes > CableFrameCoder.frameOverheadBytes,
              let code = IRACode(informationBits: 8 * bytes - uncodedSlots, codedBits: codedSlots) else { return nil }
        informationBytes = bytes
        self.code = code
        var order = Array(0..<codedSlots)
        var state: UInt64 = 0x5DEE_CE66_D1CE_CAB1 ^ UInt64(codedSlots)
        for index in stride(from: codedSlots - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            order.swapAt(index, Int((state >> 33) % UInt64(index + 1)))
        }
        permutation = order
        whitening = (0..<(8 * bytes)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8((state >> 40) & 1)
        }
    }

    /// The frame's `CablePlan.symbolsPerFrame` symbols, each a value per carrier.
    func symbols(_ bytes: [UInt8]) -> [[Complex]] {
        precondition(bytes.count == informationBytes)
        var bits = [UInt8](repeating: 0, count: 8 * bytes.count)
        for (index, byte) in bytes.enumerated() {
            for bit in 0..<8 { bits[8 * index + bit] = ((byte >> UInt8(7 - bit)) & 1) ^ whitening[8 * index + bit] }
        }
        let word = code.encode(Array(bits[0..<code.informationBits]))
        var coded = [UInt8](repeating: 0, count: codedSlots)
        for (index, bit) in word.enumerated() { coded[permutation[index]] = bit }
        var codedNext = 0
        var uncodedNext = code.informationBits
        func take(_ source: [UInt8], _ next: inout Int, _ count: Int) -> Int {
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int(source[next])
                next += 1
            }
            return value
        }
        return (0..<CablePlan.symbolsPerFrame).map { _ in
            carrierBits.map { pointBits -> Complex in
                guard pointBits > 0 else { return Complex(0, 0) }
                let axisBits = pointBits / 2
                let codedCount = CableQAM.codedBits(axisOf: pointBits)
                var axes = [0.0, 0.0]
                for axis in 0..<2 {
                    let label = take(coded, &codedNext, codedCount)
                    let upper = take(bits, &uncodedNext, axisBits - codedCount)
                    axes[axis] = CableQAM.level(axisBits: axisBits, codedLabel: label, upper: upper)
                }
                let scale = CableQAM.scale(bits: pointBits)
                return Complex(axes[0] * scale, axes[1] * scale)
            }
        }
    }

    /// The frame's bytes from its equalized symbols; nil when the code finds no codeword.
    /// - Parameter noise: complex noise variance of each carrier after equalization.
    func decode(_ symbols: [[Complex]], noise: [Double]) -> [UInt8]? {
        var slotSoft: [Float] = []
        slotSoft.reserveCapacity(codedSlots)
        for values in symbols {
            for (carrier, bits) in carrierBits.enumerated() where bits > 0 {
                let scale = CableQAM.scale(bits: bits)
                let variance = max(noise[carrier] / 2 / (scale * scale), 1e-12)
                for axis in [values[carrier].re, values[carrier].im] {
                    CableQAM.demapCoded(axis / scale, axisBits: bits / 2, variance: variance, into: &slotSoft)
                }
            }
        }
        guard let word = code.decode(permutation.map { slotSoft[$0] }) else { return nil }
        var coded = [UInt8](repeating: 0, count: codedSlots)
        for (index, bit) in word.enumerated() { coded[permutation[index]] = bit }
        var bits = Array(word[0..<code.informationBits])
        bits.reserveCapacity(8 * informationBytes)
        var codedNext = 0
        for values in symbols {
            for (carrier, pointBits) in carrierBits.enumerated() where pointBits > 0 {
                let axisBits = pointBits / 2
                let codedCount = CableQAM.codedBits(axisOf: pointBits)
                let scale = CableQAM.scale(bits: pointBits)
                for axis in [values[carrier].re, values[carrier].im] {
                    var label = 0
                    for _ in 0..<codedCount {
                        label = label << 1 | Int(coded[codedNext])
                        codedNext += 1
                    }
                    let upper = CableQAM.upperBits(axis / scale, axisBits: axisBits, codedLabel: label)
                    for bit in stride(from: axisBits - codedCount - 1, through: 0, by: -1) { bits.append(UInt8((upper >> bit) & 1)) }
                }
            }
        }
        for index in 0..<bits.count { bits[index] ^= whitening[index] }
        return (0..<informationBytes).map { index in
            (0..<8).reduce(UInt8(0)) { $0 << 1 | bits[8 * index + $1] }
        }
    }
}
