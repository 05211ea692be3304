/// A fixed pseudo-random permutation of the coded bits over the time–frequency
/// slots of a frame, so that a faded subcarrier or a burst of noise turns into
/// errors scattered along the Viterbi trellis.
public struct BitInterleaver: Sendable {
    /// `slotOfBit[i]` is the slot that carries coded bit `i`.
    public let slotOfBit: [Int]
    /// Number of slots (≥ the number of bits); slots without a bit carry padding.
    public let slotCount: Int

    public init(bitCount: Int, slotCount: Int) {
        precondition(bitCount <= slotCount)
        var slots = Array(0..<slotCount)
        // Fisher–Yates with a fixed LCG: the same permutation on every machine.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for index in stride(from: slotCount - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let other = Int((state >> 33) % UInt64(index + 1))
            slots.swapAt(index, other)
        }
        slotOfBit = Array(slots[0..<bitCount])
        self.slotCount = slotCount
    }
}
