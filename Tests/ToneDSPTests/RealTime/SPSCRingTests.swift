import Foundation
import Synchronization
import Testing
import ToneDSP
import ToneTestSupport

/// A 12-byte element (stride not a power of two) that checks itself.
private struct Record: BitwiseCopyable, Equatable {
    var low: UInt32
    var high: UInt32
    var check: UInt32

    init(_ sequence: UInt64) {
        low = UInt32(truncatingIfNeeded: sequence)
        high = UInt32(truncatingIfNeeded: sequence >> 32)
        check = UInt32(truncatingIfNeeded: (sequence &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }
}

/// Shares one ring between the test's threads.
private final class SharedRing: Sendable {
    let ring: SPSCRing
    init(capacity: Int) { ring = SPSCRing(of: Record.self, minimumCapacity: capacity) }
}

@Suite("SPSCRing")
struct SPSCRingTests {
    @Test("capacity rounds up to a power of two")
    func capacity() {
        #expect(SPSCRing(of: Float.self, minimumCapacity: 0).capacity == 2)
        #expect(SPSCRing(of: Float.self, minimumCapacity: 1000).capacity == 1024)
        #expect(SPSCRing(of: Float.self, minimumCapacity: 1024).capacity == 1024)
    }

    @Test("writes whole blocks or nothing, wraps, and peeks without consuming")
    func singleThreaded() {
        let ring = SPSCRing(of: Int32.self, minimumCapacity: 8)
        var block: [Int32] = [1, 2, 3, 4, 5, 6]
        #expect(block.withUnsafeBytes { ring.write($0.baseAddress!, count: 6) })
        #expect(!block.withUnsafeBytes { ring.write($0.baseAddress!, count: 3) })   // 2 free
        #expect(ring.readableCount == 6)
        #expect(ring.peek(as: Int32.self) == 1)
        var out = [Int32](repeating: 0, count: 8)
        #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, maxCount: 4) } == 4)
        #expect(out[0..<4] == [1, 2, 3, 4])
        block = [7, 8, 9, 10, 11, 12]                                                // wraps at 8
        #expect(block.withUnsafeBytes { ring.write($0.baseAddress!, count: 6) })
        #expect(ring.readableCount == 8)
        #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, maxCount: 100) } == 8)
        #expect(out == [5, 6, 7, 8, 9, 10, 11, 12])
        #expect(ring.peek(as: Int32.self) == nil)
        #expect(ring.producedCount == 12 && ring.consumedCount == 12)
    }

    /// Two real threads, random block sizes on both sides, a ring small enough
    /// to wrap and run full thousands of times; every element is checked.
    @Test("a concurrent producer and consumer pass every element in order", arguments: [16, 256])
    func concurrentLossless(capacity: Int) {
        let total: UInt64 = 1_000_000
        let shared = SharedRing(capacity: capacity)
        let consumerResult = Mutex<(received: UInt64, errors: Int)>((0, 0))
        let producerFullCount = Atomic<Int>(0)
        runOnThreads([
            { // producer
                var random = SeededRandom(seed: 0x7B1F_0001)
                var block = [Record](repeating: Record(0), count: capacity)
                var sent: UInt64 = 0
                var full = 0
                while sent < total {
                    let count = Int(min(UInt64(Int.random(in: 1...capacity, using: &random)), total - sent))
                    for index in 0..<count { block[index] = Record(sent + UInt64(index)) }
                    while !block.withUnsafeBytes({ shared.ring.write($0.baseAddress!, count: count) }) {
                        full += 1
                        yieldToOtherThread()
                    }
                    sent += UInt64(count)
                }
                producerFullCount.store(full, ordering: .relaxed)
            },
            { // consumer
                var random = SeededRandom(seed: 0x7B1F_0002)
                var block = [Record](repeating: Record(0), count: capacity)
                var received: UInt64 = 0
                var errors = 0
                while received < total {
                    let wanted = Int.random(in: 1...capacity, using: &random)
                    let got = block.withUnsafeMutableBufferPointer {
                        shared.ring.read(into: $0.baseAddress!, maxCount: wanted)
                    }
                    if got == 0 { yieldToOtherThread(); continue }
                    for index in 0..<got where block[index] != Record(received + UInt64(index)) { errors += 1 }
                    received += UInt64(got)
                }
                consumerResult.withLock { $0 = (received, errors) }
            },
        ])
        let result = consumerResult.withLock { $0 }
        #expect(result.errors == 0)
        #expect(result.received == total)
        #expect(shared.ring.readableCount == 0)
        report("SPSCRing capacity \(capacity): \(total) elements, 0 errors expected, \(result.errors) found; producer found the ring full \(producerFullCount.load(ordering: .relaxed)) times")
    }
}
