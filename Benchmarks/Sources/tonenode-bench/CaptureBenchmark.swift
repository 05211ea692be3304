import ToneDSP

/// The same hand-over without atomics or gap bookkeeping: a power-of-two
/// array and two plain indices (correct on one thread only).
struct PlainRing: ~Copyable {
    private let storage: UnsafeMutablePointer<Float>
    private let mask: Int
    private var writeIndex = 0
    private var readIndex = 0

    init(capacityPowerOfTwo capacity: Int) {
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
        mask = capacity - 1
    }

    deinit { storage.deallocate() }

    @inline(never)
    mutating func write(_ source: UnsafePointer<Float>, count: Int) -> Bool {
        guard count <= mask + 1 - (writeIndex - readIndex) else { return false }
        let start = writeIndex & mask
        let first = min(count, mask + 1 - start)
        (storage + start).update(from: source, count: first)
        if first < count { storage.update(from: source + first, count: count - first) }
        writeIndex += count
        return true
    }

    @inline(never)
    mutating func read(into destination: UnsafeMutablePointer<Float>, maxCount: Int) -> Int {
        let count = min(maxCount, writeIndex - readIndex)
        let start = readIndex & mask
        let first = min(count, mask + 1 - start)
        destination.update(from: storage + start, count: first)
        if first < count { (destination + first).update(from: storage, count: count - first) }
        readIndex += count
        return count
    }
}

/// `InputCapture.capture` of 256-frame periods into a ring the size the live
/// engine makes (4 s at 48 kHz), drained by a consumer on the same thread.
enum CaptureBenchmark {
    static let periodFrames = 256
    static let capacityFrames = 4 * 48_000
    /// Periods written between drains in the write-only measurement.
    static let batchPeriods = 32

    /// Seconds per `capture` call alone: batches of periods are timed, the
    /// drain after each batch is not. The cost of the two clock reads around
    /// each batch (a few percent of it), `clockOverheadSeconds`, is taken
    /// off both sides.
    static func runWriteOnly(repetitions: Int, targetSeconds: Double, clockOverheadSeconds overhead: Double) -> Comparison {
        let capture = InputCapture(capacityFrames: capacityFrames)
        var plain = PlainRing(capacityPowerOfTwo: capture.frames.capacity)
        let (source, sink) = makeBuffers()
        defer { source.deallocate(); sink.deallocate() }
        return compare(
            repetitions: repetitions, targetSeconds: targetSeconds,
            toneNode: { periods in
                var seconds = 0.0
                var done = 0
                while done < periods {
                    let batch = min(batchPeriods, periods - done)
                    seconds += stopwatch {
                        for _ in 0..<batch { capture.capture(source, count: periodFrames) }
                        return 0
                    } - overhead
                    var drained = 0
                    while drained < batch * periodFrames {
                        let (count, gap) = capture.read(into: sink, maxCount: batchPeriods * periodFrames)
                        if count == 0 && gap == nil { break }   // nothing left (cannot happen: no overflow)
                        drained += count
                    }
                    done += batch
                }
                blackHole(Double(sink[0]) + Double(capture.overflowCount.load(ordering: .relaxed)))
                return seconds
            },
            reference: { periods in
                var seconds = 0.0
                var done = 0
                while done < periods {
                    let batch = min(batchPeriods, periods - done)
                    seconds += stopwatch {
                        var overflows = 0
                        for _ in 0..<batch where !plain.write(source, count: periodFrames) { overflows += 1 }
                        return Double(overflows)
                    } - overhead
                    var drained = 0
                    while drained < batch * periodFrames {
                        let count = plain.read(into: sink, maxCount: batchPeriods * periodFrames)
                        if count == 0 { break }
                        drained += count
                    }
                    done += batch
                }
                blackHole(Double(sink[0]))
                return seconds
            })
    }

    /// Seconds per period for one `capture` followed by one drain.
    static func runRoundTrip(repetitions: Int, targetSeconds: Double) -> Comparison {
        let capture = InputCapture(capacityFrames: capacityFrames)
        var plain = PlainRing(capacityPowerOfTwo: capture.frames.capacity)
        let (source, sink) = makeBuffers()
        defer { source.deallocate(); sink.deallocate() }
        return compare(
            repetitions: repetitions, targetSeconds: targetSeconds,
            toneNode: { periods in
                stopwatch {
                    var checksum: Float = 0
                    for _ in 0..<periods {
                        capture.capture(source, count: periodFrames)
                        _ = capture.read(into: sink, maxCount: periodFrames)
                        checksum += sink[periodFrames - 1]
                    }
                    return Double(checksum)
                }
            },
            reference: { periods in
                stopwatch {
                    var checksum: Float = 0
                    for _ in 0..<periods {
                        _ = plain.write(source, count: periodFrames)
                        _ = plain.read(into: sink, maxCount: periodFrames)
                        checksum += sink[periodFrames - 1]
                    }
                    return Double(checksum)
                }
            })
    }

    /// A period of input (a ramp, so copies are visible) and a drain buffer.
    private static func makeBuffers() -> (source: UnsafeMutablePointer<Float>, sink: UnsafeMutablePointer<Float>) {
        let source = UnsafeMutablePointer<Float>.allocate(capacity: periodFrames)
        for index in 0..<periodFrames { source[index] = Float(index) / Float(periodFrames) }
        let sink = UnsafeMutablePointer<Float>.allocate(capacity: batchPeriods * periodFrames)
        sink.initialize(repeating: 0, count: batchPeriods * periodFrames)
        return (source, sink)
    }
}
