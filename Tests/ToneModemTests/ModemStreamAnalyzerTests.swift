import Testing
import ToneDSP
import ToneModem

@Suite("ModemStreamAnalyzer")
struct ModemStreamAnalyzerTests {
    static let rate = 48_000.0

    static func render(_ text: String, id: UInt16) throws -> [Float] {
        try ModemModulator(profile: .ultrasonic, sampleRateHz: rate).render(message: Array(text.utf8), messageID: id)
    }

    /// The worker's loop: read the capture ring; a gap goes to `skip`, samples to `process`.
    static func drain(_ capture: borrowing InputCapture, into analyzer: ModemStreamAnalyzer) -> [ModemEvent] {
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 4096)
        defer { scratch.deallocate() }
        while true {
            let (count, gap) = capture.read(into: scratch, maxCount: 4096)
            if let gap {
                analyzer.skip(frames: gap.frames)
                continue
            }
            if count == 0 { break }
            analyzer.process(UnsafeBufferPointer(start: scratch, count: count)) { _ in
                Issue.record("the modem adapter produced a tone report")
            }
        }
        return analyzer.takeEvents()
    }

    @Test("a ring overflow in the middle of a frame drops that message; the next one arrives whole")
    func overflowDropsTheDamagedFrame() throws {
        let first = try Self.render("damaged by the overflow", id: 1)
        let second = try Self.render("arrives whole", id: 2)
        let capture = InputCapture(capacityFrames: 4096)
        let analyzer = try ModemStreamAnalyzer(sampleRateHz: Self.rate, profiles: [.ultrasonic])
        let period = 256
        var events: [ModemEvent] = []
        // Periods as the process callback captures them; the worker keeps up
        // until the middle of the first message, then stalls for longer than
        // the ring holds, so the ring overflows and reports a gap.
        let stallAt = first.count / 2, resumeAt = stallAt + 2 * 4096
        #expect(resumeAt < first.count)
        let stream = first + second
        var position = 0
        while position < stream.count {
            let count = min(period, stream.count - position)
            stream.withUnsafeBufferPointer { all in
                capture.capture(all.baseAddress! + position, count: count)  // safe: count ≤ all.count - position
            }
            position += count
            if position <= stallAt || position >= resumeAt { events += Self.drain(capture, into: analyzer) }
        }
        events += Self.drain(capture, into: analyzer) + (analyzer.receiver?.finish() ?? [])
        #expect(capture.overflowCount.load(ordering: .relaxed) > 0)
        let messages = events.compactMap { event -> ModemMessage? in
            if case .message(let message) = event { return message }
            return nil
        }
        #expect(messages.map(\.text) == ["arrives whole"])
        #expect(analyzer.receiver?.framesDecoded == 1)
        // The damaged frame was never even tried (the gap cleared its preamble),
        // and the stream clock counted the lost frames: the second message sits
        // where it was sent (its preamble 25 ms into its own rendering).
        #expect(analyzer.receiver?.framesRejected == 0)
        let expectedSeconds = Double(first.count) / Self.rate + 0.025
        #expect(abs((messages.first?.timeSeconds ?? 0) - expectedSeconds) < 0.001)
    }

    @Test("without a gap, both messages arrive through the same loop")
    func noGap() throws {
        let stream = try Self.render("one", id: 1) + Self.render("two", id: 2)
        let capture = InputCapture(capacityFrames: 16_384)
        let analyzer = try ModemStreamAnalyzer(sampleRateHz: Self.rate)
        var events: [ModemEvent] = []
        for start in stride(from: 0, to: stream.count, by: 1000) {
            let count = min(1000, stream.count - start)
            stream.withUnsafeBufferPointer { capture.capture($0.baseAddress! + start, count: count) }
            events += Self.drain(capture, into: analyzer)
        }
        events += (analyzer.receiver?.finish() ?? [])
        let texts = events.compactMap { event -> String? in
            if case .message(let message) = event { return message.text }
            return nil
        }
        #expect(texts == ["one", "two"])
    }
}
