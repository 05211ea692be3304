import Foundation
import Testing
@testable import ToneDSP
@testable import ToneModem
import ToneTestSupport

@Suite("Cable modem: the LDPC code and the levels")
struct CableCodingTests {
    @Test("the IRA code at rate 1/2 over BPSK: noiseless and at Eb/N0 2.5 dB, every block decodes to what was sent")
    func iraCode() throws {
        let code = try #require(IRACode(informationBits: 3_000, codedBits: 6_000))
        var random = SeededRandom(seed: 11)
        // Eb/N0 = 2.5 dB at rate 1/2: Es/N0 = −0.51 dB; BPSK ±1 with noise σ² = 1 / (2 Es/N0).
        let sigma = (1 / (2 * pow(10, -0.051))).squareRoot()
        for block in 0..<4 {
            let bits = (0..<3_000).map { _ in UInt8(random.next() & 1) }
            let word = code.encode(bits)
            #expect(code.decode(word.map { $0 == 0 ? 30 : -30 }) == word)
            let soft = word.map { bit -> Float in
                let value = (bit == 0 ? 1.0 : -1.0) + sigma * random.gaussian()
                return Float(2 * value / (sigma * sigma))
            }
            #expect(code.decode(soft).map { Array($0[0..<3_000]) } == bits, "block \(block)")
        }
    }

    @Test("levels: every point of 16- to 2²⁴-QAM maps back to its coded label and upper bits")
    func levels() {
        for axisBits in 1...12 {
            let coded = min(axisBits, CableQAM.codedLevels)
            for upper in [0, (1 << (axisBits - coded)) - 1, (1 << (axisBits - coded)) / 2] {
                for label in 0..<(1 << coded) {
                    let level = CableQAM.level(axisBits: axisBits, codedLabel: label, upper: upper)
                    #expect(CableQAM.upperBits(level + 0.4, axisBits: axisBits, codedLabel: label) == upper)
                    var soft: [Float] = []
                    CableQAM.demapCoded(level - 0.3, axisBits: axisBits, variance: 0.05, into: &soft)
                    let decided = soft.reduce(0) { $0 << 1 | ($1 < 0 ? 1 : 0) }
                    #expect(decided == label, "axis bits \(axisBits), upper \(upper), label \(label)")
                }
            }
        }
    }
}
