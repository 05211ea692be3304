import Testing
import ToneDSP
import ToneTestSupport

@Suite struct SamplePlayerTests {
    @Test("queued samples are added to the output in order, across periods of any size, then silence")
    func mixesInOrder() {
        let player = SamplePlayer(capacityFrames: 1 << 12)
        var generator = SeededRandom(seed: 7)
        let signal = (0..<3000).map { _ in Float.random(in: -1...1, using: &generator) }
        let queued = signal.withUnsafeBufferPointer { player.enqueue($0) }
        #expect(queued == signal.count)
        let drainedBefore = player.isDrained
        #expect(!drainedBefore)
        var out: [Float] = []
        for period in [1, 32, 4096, 7, 256, 1024] {
            var buffer = [Float](repeating: 0.5, count: period)
            buffer.withUnsafeMutableBufferPointer { player.mix(into: $0.baseAddress!, frames: period) }
            out += buffer
        }
        #expect(out.count >= signal.count)
        #expect(zip(out.prefix(signal.count), signal).allSatisfy { $0 == $1 + 0.5 }, "added, not replaced")
        #expect(out.dropFirst(signal.count).allSatisfy { $0 == 0.5 }, "nothing added once drained")
        let drained = player.isDrained, played = player.playedFrames.load(ordering: .acquiring)
        #expect(drained)
        #expect(played == signal.count)
    }

    @Test("a full queue takes what fits; the rest is queued as it drains")
    func partialEnqueue() {
        let player = SamplePlayer(capacityFrames: 1000)  // rounded up to 1024
        let signal = (0..<2500).map { Float($0) }
        var offset = signal.withUnsafeBufferPointer { player.enqueue($0) }
        #expect(offset == 1024)
        var out: [Float] = []
        while out.count < signal.count {
            var buffer = [Float](repeating: 0, count: 300)
            buffer.withUnsafeMutableBufferPointer { player.mix(into: $0.baseAddress!, frames: 300) }
            out += buffer
            offset += signal[offset...].withUnsafeBufferPointer { player.enqueue($0) }
        }
        #expect(Array(out.prefix(signal.count)) == signal)
        let enqueued = player.enqueuedFrames
        #expect(enqueued == signal.count)
    }
}
