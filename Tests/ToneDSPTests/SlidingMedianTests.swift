import Testing
@testable import ToneDSP

@Suite("SlidingMedian")
struct SlidingMedianTests {
    /// The reference: sort the window afresh.
    static func sortedMedian(_ values: [Double], _ low: Int, _ high: Int, minimumCount: Int) -> Double? {
        guard high - low + 1 >= minimumCount, high >= low else { return nil }
        let window = values[low...high].sorted()
        return window[window.count / 2]
    }

    @Test("matches a fresh sort at every step, through growing, sliding, shrinking, jumps and ties")
    func matchesSort() {
        var random = SeededRandom(seed: 0x3ED1A)
        // Ties on purpose: few distinct values.
        let values = (0..<3000).map { _ in Double(Int.random(in: 0..<40, using: &random)) }
        var median = SlidingMedian(capacity: 28)
        var mismatches = 0
        values.withUnsafeBufferPointer { buffer in
            for pass in 0..<2 {
                median.reset()
                for k in 0..<2900 {
                    // Windows as the estimator uses them, plus a jump now and then.
                    let below = (max(1, k - 32), k - 5)
                    let jump = pass == 1 && k % 97 == 0 ? 50 : 0
                    let above = (min(2999, k + 5 + jump), min(2999, k + 32 + jump))
                    let window = k % 2 == 0 ? below : above
                    median.slide(to: window.0, window.1, of: buffer.baseAddress!)
                    if median.median(minimumCount: 4) != Self.sortedMedian(values, window.0, window.1, minimumCount: 4) {
                        mismatches += 1
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }
}
