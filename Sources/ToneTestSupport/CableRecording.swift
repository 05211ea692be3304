import ToneDSP
import ToneModem

/// A file sent as cable segments (`CableSegment`), each its own transmission,
/// as one recording: what `send --profile cable` plays, made offline, so
/// tests can cut, corrupt and mix it (issue 32 item 5).
public struct CableRecording {
    public let file: [UInt8]
    public let sampleRateHz: Double
    public var signal: [Float] = []
    /// Where each segment's transmission lies in `signal`.
    public private(set) var spans: [Range<Int>] = []
    public let modulator: CableModulator

    /// - Parameters:
    ///   - bytes: seeded random bytes, cut into segments of `segmentBytes`.
    ///   - silenceSamples: silence before each segment and after the last.
    public init(bytes: Int, segmentBytes: Int, seed: UInt64, transferID: UInt32 = 0xBADC0DE, sampleRateHz: Double = 48_000,
                silenceSamples: Int = 4_800) throws {
        var random = SeededRandom(seed: seed)
        file = (0..<bytes).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        self.sampleRateHz = sampleRateHz
        modulator = try CableModulator(sampleRateHz: sampleRateHz)
        let silence = [Float](repeating: 0, count: silenceSamples)
        signal = silence
        for range in CableSegment.ranges(totalBytes: bytes, dataBytes: segmentBytes) {
            let segment = CableSegment(transferID: transferID, offset: range.lowerBound, totalBytes: bytes, data: file[range])
            let part = try modulator.render(message: segment.encoded)
            spans.append(signal.count..<(signal.count + part.count))
            signal += part + silence
        }
    }

    /// Sample of `signal` where data frame `frame` of segment `index` starts (its cyclic prefix).
    public func frameStart(segment index: Int, frame: Int) -> Int {
        spans[index].lowerBound + modulator.geometry.symbolStart(CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame)
    }

    /// Sample of `signal` where segment `index`'s header symbol starts.
    public func headerStart(segment index: Int) -> Int {
        spans[index].lowerBound + modulator.geometry.symbolStart(CableGeometry.firstDataSymbol - 1)
    }

    /// Scrambles `length` samples from `start` in place (the same energy, no structure left),
    /// or adds a ±0.9 impulse burst of 48 samples there.
    public mutating func corrupt(at start: Int, length: Int, scramble: Bool, seed: UInt64) {
        var random = SeededRandom(seed: seed)
        if scramble {
            for index in start..<(start + length) { signal.swapAt(index, start + Int(random.next() % UInt64(length))) }
        } else {
            for index in start..<(start + 48) { signal[index] += index % 2 == 0 ? 0.9 : -0.9 }
        }
    }
}
