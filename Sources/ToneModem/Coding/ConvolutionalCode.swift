/// The K = 9 convolutional code with generators 561, 753 (the IS-95 rate-1/2
/// code, free distance 12) and 711 (octal), a rate-1/3 mother code: rate 1/2 sends the
/// first two outputs, rate 2/3 punctures the second output of every other
/// step, and a frame with room to spare sends third outputs spread evenly into
/// it (a rate between 1/3 and 1/2). Soft-decision Viterbi decoder. The encoder
/// appends K − 1 zero tail bits, so every block starts and ends in state 0.
///
/// Worker only: the decoder reuses buffers allocated in `init`.
public final class ConvolutionalCode {
    public static let constraintLength = 9
    static let tailBits = constraintLength - 1
    private static let stateCount = 1 << (constraintLength - 1)
    private static let wordsPerStep = stateCount / 64
    /// Parity outputs for each 9-bit register value: bit 2 = generator 561, bit 1 = 753, bit 0 = 711.
    private static let outputs: [UInt8] = (0..<(1 << constraintLength)).map { register in
        let first = (register & 0o561).nonzeroBitCount & 1
        let second = (register & 0o753).nonzeroBitCount & 1
        let third = (register & 0o711).nonzeroBitCount & 1
        return UInt8(first << 2 | second << 1 | third)
    }

    /// Which of the 3 outputs per step are sent.
    /// - Parameters:
    ///   - punctured: rate 2/3 (no third outputs).
    ///   - slotCount: room in the frame; unpunctured codes fill it with third outputs.
    static func pattern(informationBits: Int, punctured: Bool, slotCount: Int) -> [Bool] {
        let steps = informationBits + tailBits
        let extra = punctured ? 0 : max(0, min(steps, slotCount - 2 * steps))
        var sent = [Bool](repeating: false, count: 3 * steps)
        for step in 0..<steps {
            sent[3 * step] = true
            sent[3 * step + 1] = !punctured || step % 2 == 0
            sent[3 * step + 2] = (step + 1) * extra / steps > step * extra / steps
        }
        return sent
    }

    /// Information bits per block (without the tail).
    public let informationBits: Int
    /// `sent[3 * step + output]`: whether that output is transmitted.
    let sent: [Bool]
    /// Coded bits per block, tail included.
    public let codedBits: Int

    private let metrics: UnsafeMutablePointer<Float>
    private let nextMetrics: UnsafeMutablePointer<Float>
    private let decisions: UnsafeMutablePointer<UInt64>
    private let motherSoft: UnsafeMutablePointer<Float>

    /// - Parameters:
    ///   - slotCount: room for coded bits; nil: exactly rate 1/2 (or 2/3 when punctured).
    public convenience init(informationBits: Int, punctured: Bool, slotCount: Int? = nil) {
        self.init(pattern: Self.pattern(informationBits: informationBits, punctured: punctured, slotCount: slotCount ?? 0))
    }

    init(pattern: [Bool]) {
        precondition(pattern.count % 3 == 0 && pattern.count > 3 * Self.tailBits)
        let steps = pattern.count / 3
        informationBits = steps - Self.tailBits
        sent = pattern
        codedBits = pattern.filter { $0 }.count
        metrics = .allocate(capacity: Self.stateCount)
        nextMetrics = .allocate(capacity: Self.stateCount)
        decisions = .allocate(capacity: steps * Self.wordsPerStep)
        motherSoft = .allocate(capacity: 3 * steps)
    }

    deinit {
        metrics.deallocate()
        nextMetrics.deallocate()
        decisions.deallocate()
        motherSoft.deallocate()
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
            register = ((register << 1) | bit) & ((1 << Self.constraintLength) - 1)
            let triple = Self.outputs[register]
            for output in 0..<3 where sent[3 * step + output] { out.append((triple >> UInt8(2 - output)) & 1) }
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
        for index in 0..<(3 * steps) {
            if sent[index] {
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
                let first = motherSoft[3 * step]
                let second = motherSoft[3 * step + 1]
                let third = motherSoft[3 * step + 2]
                let chosen = decisions + step * Self.wordsPerStep
                for word in 0..<Self.wordsPerStep { chosen[word] = 0 }
                for state in 0..<Self.stateCount {
                    // state = last K − 1 input bits, newest in bit 0; the register adds the oldest.
                    let bit = state & 1
                    let previousLow = state >> 1
                    var best: Float = 0
                    for oldest in 0..<2 {
                        let previous = previousLow | (oldest << (Self.constraintLength - 2))
                        let register = (previous << 1) | bit
                        let triple = outputs[register]
                        let branch = (triple & 4 == 0 ? first : -first) + (triple & 2 == 0 ? second : -second)
                            + (triple & 1 == 0 ? third : -third)
                        let candidate = current[previous] + branch
                        if oldest == 0 || candidate > best {
                            best = candidate
                            if oldest == 1 { chosen[state >> 6] |= 1 << UInt64(state & 63) }
                        }
                    }
                    following[state] = best
                }
                swap(&current, &following)
            }
        }
        var bits = [UInt8](repeating: 0, count: steps)
        var state = 0  // the tail drives the encoder back to state 0
        for step in stride(from: steps - 1, through: 0, by: -1) {
            bits[step] = UInt8(state & 1)
            let oldest = Int((decisions[step * Self.wordsPerStep + (state >> 6)] >> UInt64(state & 63)) & 1)
            state = (state >> 1) | (oldest << (Self.constraintLength - 2))
        }
        return Array(bits[0..<informationBits])
    }
}
