#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A systematic irregular repeat–accumulate LDPC code (an IRA code): every
/// information bit takes part in three parity checks, each check sums
/// `checkDegree` (or one more) information bits and the previous parity bit,
/// so parity bit j = parity bit j − 1 ⊕ the information bits of check j (an
/// accumulator: linear-time encoding). Rate ≈ a / (a + 3) for a = `checkDegree`.
/// The graph is pseudo-random from a fixed seed and the block size, so sender
/// and receiver build the same one. Decoded by belief propagation (sum-product
/// in the log domain, flooding), stopping as soon as every check holds.
///
/// Worker only: the decoder reuses buffers allocated in `init`.
final class IRACode {
    static let informationDegree = 3
    let informationBits: Int
    let parityBits: Int
    var codedBits: Int { informationBits + parityBits }
    /// Information bits of each check, flattened: check j's are `checkInformation[checkStart[j]..<checkStart[j + 1]]`.
    private let checkStart: [Int]
    private let checkInformation: [Int]
    /// Variables of each check (information bits, then p_{j−1}, p_j), as codeword indices, same layout as `edgeStart`.
    private let edgeStart: [Int]
    private let edgeVariable: [Int]
    /// Edges of each variable node, flattened.
    private let variableEdgeStart: [Int]
    private let variableEdges: [Int]
    private var checkToVariable: [Float]
    private var posterior: [Float]
    private var hard: [UInt8]

    /// nil when there is no room for a code (fewer than 8 information or parity bits).
    init?(informationBits: Int, codedBits: Int) {
        let parity = codedBits - informationBits
        guard informationBits >= 8, parity >= 8 else { return nil }
        self.informationBits = informationBits
        parityBits = parity
        // 3K sockets spread evenly over the M checks, then permuted.
        let sockets = Self.informationDegree * informationBits
        var socketBit = (0..<sockets).map { $0 / Self.informationDegree }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(informationBits) << 20 ^ UInt64(parity)
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for index in stride(from: sockets - 1, to: 0, by: -1) { socketBit.swapAt(index, random(index + 1)) }
        let socketCheck = (0..<sockets).map { $0 * parity / sockets }
        // One bit twice in a check cancels: move the second copy elsewhere.
        for socket in 1..<sockets where socketCheck[socket] == socketCheck[socket - 1] && socketBit[socket] == socketBit[socket - 1] {
            socketBit.swapAt(socket, random(sockets))
        }
        var starts = [Int](repeating: 0, count: parity + 1)
        for check in socketCheck { starts[check + 1] += 1 }
        for check in 0..<parity { starts[check + 1] += starts[check] }
        checkStart = starts
        checkInformation = socketBit
        var edgeStarts = [0]
        var variables: [Int] = []
        variables.reserveCapacity(sockets + 2 * parity)
        for check in 0..<parity {
            variables += socketBit[starts[check]..<starts[check + 1]]
            if check > 0 { variables.append(informationBits + check - 1) }
            variables.append(informationBits + check)
            edgeStarts.append(variables.count)
        }
        edgeStart = edgeStarts
        edgeVariable = variables
        var degree = [Int](repeating: 0, count: codedBits + 1)
        for variable in variables { degree[variable + 1] += 1 }
        for index in 0..<codedBits { degree[index + 1] += degree[index] }
        var fill = degree
        var edges = [Int](repeating: 0, count: variables.count)
        for (edge, variable) in variables.enumerated() {
            edges[fill[variable]] = edge
            fill[variable] += 1
        }
        variableEdgeStart = degree
        variableEdges = edges
        checkToVariable = [Float](repeating: 0, count: variables.count)
        posterior = [Float](repeating: 0, count: codedBits)
        hard = [UInt8](repeating: 0, count: codedBits)
    }

    /// The codeword (information bits, then parity) of `bits` (0 or 1).
    func encode(_ bits: [UInt8]) -> [UInt8] {
        precondition(bits.count == informationBits)
        var word = bits
        word.reserveCapacity(codedBits)
        var previous: UInt8 = 0
        for check in 0..<parityBits {
            var sum = previous
            for index in checkStart[check]..<checkStart[check + 1] { sum ^= bits[checkInformation[index]] }
            word.append(sum)
            previous = sum
        }
        return word
    }

    /// −log tanh(x / 2), its own inverse.
    @inline(__always) private static func phi(_ x: Float) -> Float {
        let clamped = min(max(x, 1e-7), 30)
        return -logf(tanhf(clamped / 2))
    }

    /// The codeword most likely given `soft` (LLRs, positive: bit 0), or nil
    /// when belief propagation found none within `iterations`.
    func decode(_ soft: [Float], iterations: Int = 60) -> [UInt8]? {
        precondition(soft.count == codedBits)
        for index in 0..<checkToVariable.count { checkToVariable[index] = 0 }
        for _ in 0..<iterations {
            // Variable nodes: the posterior and each hard decision.
            for variable in 0..<codedBits {
                var sum = soft[variable]
                for index in variableEdgeStart[variable]..<variableEdgeStart[variable + 1] { sum += checkToVariable[variableEdges[index]] }
                posterior[variable] = sum
                hard[variable] = sum < 0 ? 1 : 0
            }
            if satisfied() { return hard }
            // Check nodes: sum-product, from the variable-to-check messages (posterior minus own input).
            for check in 0..<parityBits {
                var total: Float = 0
                var negative = false
                let range = edgeStart[check]..<edgeStart[check + 1]
                for edge in range {
                    let message = posterior[edgeVariable[edge]] - checkToVariable[edge]
                    checkToVariable[edge] = message
                    total += Self.phi(abs(message))
                    if message < 0 { negative.toggle() }
                }
                for edge in range {
                    let message = checkToVariable[edge]
                    let magnitude = Self.phi(max(total - Self.phi(abs(message)), 0))
                    let sign = negative != (message < 0)
                    checkToVariable[edge] = sign ? -magnitude : magnitude
                }
            }
        }
        for variable in 0..<codedBits {
            var sum = soft[variable]
            for index in variableEdgeStart[variable]..<variableEdgeStart[variable + 1] { sum += checkToVariable[variableEdges[index]] }
            hard[variable] = sum < 0 ? 1 : 0
        }
        return satisfied() ? hard : nil
    }

    private func satisfied() -> Bool {
        for check in 0..<parityBits {
            var sum: UInt8 = 0
            for edge in edgeStart[check]..<edgeStart[check + 1] { sum ^= hard[edgeVariable[edge]] }
            if sum != 0 { return false }
        }
        return true
    }
}
