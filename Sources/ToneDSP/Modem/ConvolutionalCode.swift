/// The K = 7 convolutional code (generators 171, 133 octal — the NASA/802.11
/// code) at rate 1/2, optionally punctured to rate 2/3, with a soft-decision
/// Viterbi decoder. The encoder appends K − 1 zero tail bits, so every block
/// starts and ends in state 0.
///
/// Worker only: the decoder reuses buffers allocated in `init`.
public final class ConvolutionalCode {
    public static let constraintLength = 7
    static let tailBits = constraintLength - 1
    private static let stateCount = 64
    /// Parity outputs for each 7-bit register value: bit 1 = generator 171, bit 0 = 133.
    private static let outputs: [UInt8] = (0..<128).map { register in
        let first = (register & 0o171).nonzeroBitCount & 1
        let second = (register & 0o133).nonzeroBitCount & 1
        return UInt8(first << 1 | second)
    }

    /// Information bits per block (without the tail).
    public let informationBits: Int
    /// `true`: rate 2/3 (the second output of every other step is not sent).
    public let punctured: Bool
    /// Coded bits per block, tail included.
    public let codedBits: Int

    private let metrics: UnsafeMutablePointer<Float>
    private let nextMetrics: UnsafeMutablePointer<Float>
    private let decisions: UnsafeMutablePointer<UInt64>
    private let motherSoft: UnsafeMutablePointer<Float>

    public init(informationBits: Int, punctured: Bool) {
        precondition(informationBits > 0)
        self.informationBits = informationBits
        self.punctured = punctured
        let steps = informationBits + Self.tailBits
        codedBits = punctured ? steps + (steps + 1) / 2 : 2 * steps
        metrics = .allocate(capacity: Self.stateCount)
        nextMetrics = .allocate(capacity: Self.stateCount)
        decisions = .allocate(capacity: steps)
        motherSoft = .allocate(capacity: 2 * steps)
    }

    deinit {
        metrics.deallocate()
        nextMetrics.deallocate()
        decisions.deallocate()
        motherSoft.deallocate()
    }

    /// Whether mother-code output `index` (2 per step) is transmitted.
    @inline(__always) private func isSent(_ index: Int) -> Bool {
        !punctured || index % 4 != 3
    }

    /// Encodes `bits` (0 or 1, `informationBits` of them) into `codedBits` bits.
    public func encode(_ bits: [UInt8]) -> [UInt8] {
        precondition(bits.count == informationBits)
        var out: [UInt8] = []
        out.reserveCapacity(codedBits)
        var register = 0
        let steps = informationBits + Self.tailBits
        for step in 0..<steps {
            let bit = step < informationBits ? Int(bits[step] & 1) : 0
            register = ((register << 1) | bit) & 0x7F
            let pair = Self.outputs[register]
            if isSent(2 * step) { out.append(pair >> 1) }
            if isSent(2 * step + 1) { out.append(pair & 1) }
        }
        return out
    }

    /// Maximum-likelihood decoding of soft values (positive: bit 0 more likely,
    /// magnitude: confidence; 0 means nothing known).
    /// - Parameter soft: `codedBits` values.
    /// - Returns: the `informationBits` decoded bits.
    public func decode(_ soft: UnsafeBufferPointer<Float>) -> [UInt8] {
        precondition(soft.count == codedBits)
        let steps = informationBits + Self.tailBits
        var next = 0
        for index in 0..<(2 * steps) {
            if isSent(index) {
                motherSoft[index] = soft[next]
                next += 1
            } else {
                motherSoft[index] = 0
            }
        }
        let unreachable: Float = -1e30
        for state in 0..<Self.stateCount { metrics[state] = unreachable }
        metrics[0] = 0
        var current = metrics
        var following = nextMetrics
        Self.outputs.withUnsafeBufferPointer { outputs in
            for step in 0..<steps {
                let first = motherSoft[2 * step]
                let second = motherSoft[2 * step + 1]
                var chosen: UInt64 = 0
                for state in 0..<Self.stateCount {
                    // state = last six input bits, newest in bit 0; the register adds the oldest.
                    let bit = state & 1
                    let previousLow = state >> 1
                    var best: Float = 0
                    for oldest in 0..<2 {
                        let previous = previousLow | (oldest << 5)
                        let register = (previous << 1) | bit
                        let pair = outputs[register]
                        let branch = (pair & 2 == 0 ? first : -first) + (pair & 1 == 0 ? second : -second)
                        let candidate = current[previous] + branch
                        if oldest == 0 || candidate > best {
                            best = candidate
                            if oldest == 1 { chosen |= 1 << UInt64(state) }
                        }
                    }
                    following[state] = best
                }
                decisions[step] = chosen
                swap(&current, &following)
            }
        }
        var bits = [UInt8](repeating: 0, count: steps)
        var state = 0  // the tail drives the encoder back to state 0
        for step in stride(from: steps - 1, through: 0, by: -1) {
            bits[step] = UInt8(state & 1)
            let oldest = Int((decisions[step] >> UInt64(state)) & 1)
            state = (state >> 1) | (oldest << 5)
        }
        return Array(bits[0..<informationBits])
    }
}
