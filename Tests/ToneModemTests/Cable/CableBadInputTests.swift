import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

/// Issue 32 item 5 at the modem's level: truncated, corrupted, foreign and
/// half-heard transfers deliver no wrong byte and are said in one line.
@Suite("Cable modem: bad input on a one-way transfer")
struct CableBadInputTests {
    static let rate = 48_000.0
    /// Bytes per segment here (three frames of the file default; `send` puts 32 in one: short tests).
    static let segmentBytes = 9_000

    /// A recording of three segments (9000, 9000 and 6000 bytes: 3, 3 and 2 frames).
    static func recording(bytes: Int = 24_000, seed: UInt64, transferID: UInt32 = 0xBADC0DE) throws -> CableRecording {
        try CableRecording(bytes: bytes, segmentBytes: segmentBytes, seed: seed, transferID: transferID)
    }

    /// Every transmission in `signal` through a one-way assembler: the files it completed and the assembler.
    static func assemble(_ signal: [Float]) throws -> (files: [[UInt8]], assembler: CableTransferAssembler, lines: [String]) {
        var assembler = CableTransferAssembler()
        var files: [[UInt8]] = []
        var lines: [String] = []
        for reception in try CableDemodulator(sampleRateHz: rate).receiveAll(signal) {
            switch assembler.take(reception) {
            case .plain(let bytes): files.append(bytes)
            case .lost: lines.append(reception.summary)
            case .segment(_, let outcome, let abandoned):
                if let abandoned { lines.append(abandoned) }
                if outcome == .foreign { lines.append("foreign") }
                if case .added(complete: true) = outcome, let file = assembler.file {
                    files.append(file)
                    assembler = CableTransferAssembler()
                }
            }
        }
        return (files, assembler, lines)
    }

    @Test("a whole recording of three segments is put back together byte for byte")
    func whole() throws {
        let recording = try Self.recording(seed: 1)
        let result = try Self.assemble(recording.signal)
        #expect(result.files == [recording.file], "\(result.files.map(\.count))")
        #expect(result.assembler.incompleteSummary == nil)
    }

    @Test("cut inside the last segment's second frame: nothing delivered; the line says 18000 of 24000 bytes and the cut")
    func cutInsideFrame() throws {
        let recording = try Self.recording(seed: 2)
        let result = try Self.assemble(Array(recording.signal[..<(recording.frameStart(segment: 2, frame: 1) + 700)]))
        #expect(result.files.isEmpty)
        let line = try #require(result.assembler.incompleteSummary)
        #expect(line.contains("incomplete: 18000 of 24000 bytes in 2 segment(s), 6000 missing"), "\(line)")
        #expect(line.contains("1 transmission(s) lost (1 cut off)"), "\(line)")
        #expect(result.lines.first?.contains("cut off by the end of the recording") == true, "\(result.lines)")
    }

    @Test("cut before a segment's header ends: said as such, nothing delivered")
    func cutBeforeHeader() throws {
        let recording = try Self.recording(seed: 3)
        let end = recording.frameStart(segment: 1, frame: 0) - recording.modulator.geometry.symbolSamples / 2
        let result = try Self.assemble(Array(recording.signal[..<end]))
        #expect(result.files.isEmpty)
        #expect(result.lines == ["cable: the recording ends before the header (sync found at sample \(recording.spans[1].lowerBound)); "
                                 + "nothing delivered"])
        #expect(result.assembler.incompleteSummary?.contains("9000 of 24000 bytes") == true)
    }

    @Test("one frame scrambled, or an impulse burst on it: that segment fails its check, the file is not delivered",
          arguments: ["scrambled", "impulse"])
    func corruptedFrame(kind: String) throws {
        var recording = try Self.recording(seed: 4)
        recording.corrupt(at: recording.frameStart(segment: 1, frame: 2), length: recording.modulator.geometry.symbolSamples,
                          scramble: kind == "scrambled", seed: 5)
        let result = try Self.assemble(recording.signal)
        #expect(result.files.isEmpty)
        #expect(result.lines.count == 1 && result.lines[0].contains("1 damaged"), "\(result.lines)")
        let line = try #require(result.assembler.incompleteSummary)
        #expect(line.contains("15000 of 24000 bytes in 2 segment(s), 9000 missing; 1 transmission(s) lost;"), "\(line)")
    }

    @Test("a scrambled header: the segment is lost, the rest is not taken for it; an impulse burst on it is corrected",
          arguments: ["scrambled", "impulse"])
    func corruptedHeader(kind: String) throws {
        var recording = try Self.recording(seed: 6)
        recording.corrupt(at: recording.headerStart(segment: 0), length: recording.modulator.geometry.symbolSamples,
                          scramble: kind == "scrambled", seed: 7)
        let result = try Self.assemble(recording.signal)
        if kind == "impulse" {
            // The header's rate-1/2 code, repeated on every carrier, corrects a 1 ms burst: whole, or nothing.
            #expect(result.files == [recording.file], "\(result.files.map(\.count)) \(result.lines)")
            return
        }
        #expect(result.files.isEmpty)
        #expect(result.lines == ["cable: no header could be read (sync found at sample 4800); nothing delivered"])
        let line = try #require(result.assembler.incompleteSummary)
        // Lost before the first segment heard: not taken for a late start.
        #expect(line.contains("15000 of 24000 bytes in 2 segment(s), 9000 missing; 1 transmission(s) lost;"), "\(line)")
        #expect(!line.contains("never heard"))
    }

    @Test("heard from the middle of its first segment on: the start is said missing, nothing delivered")
    func startedHalfway() throws {
        let recording = try Self.recording(seed: 8)
        let result = try Self.assemble(Array(recording.signal[(recording.frameStart(segment: 0, frame: 1))...]))
        #expect(result.files.isEmpty)
        let line = try #require(result.assembler.incompleteSummary)
        #expect(line == "cable: transfer badc0de incomplete: 15000 of 24000 bytes in 2 segment(s), 9000 missing "
                + "(its first 9000 bytes were never heard: a receiver started late?); 0 transmission(s) lost; nothing delivered")
    }

    @Test("a transfer that loses its end, then another: the first said incomplete when the second begins, the second whole")
    func senderDiedThenAnother() throws {
        let first = try Self.recording(seed: 9, transferID: 1)
        let second = try Self.recording(bytes: 8_000, seed: 10, transferID: 2)
        let result = try Self.assemble(Array(first.signal[..<first.spans[2].lowerBound]) + second.signal)
        #expect(result.files == [second.file], "\(result.files.map(\.count))")
        #expect(result.lines == ["cable: transfer 1 incomplete: 18000 of 24000 bytes in 2 segment(s), 6000 missing; "
                                 + "0 transmission(s) lost; nothing delivered"])
    }

    @Test("two transfers whose segments interleave back to back (no silence between, each short): the second's counted as foreign, the first whole")
    func interleaved() throws {
        let one = try Self.recording(bytes: 18_000, seed: 11, transferID: 1)
        let two = try Self.recording(bytes: 18_000, seed: 12, transferID: 2)
        // one's segment 0, two's segment 1, one's segment 1, the last two with no silence between.
        // The second sender 4.4 dB quieter: the earlier, quieter chirp must still be found first.
        let signal = Array(one.signal[..<one.spans[1].lowerBound]) + two.signal[two.spans[1]].map { $0 * 0.6 }
            + Array(one.signal[one.spans[1].lowerBound...])
        let result = try Self.assemble(signal)
        #expect(result.files == [one.file], "\(result.files.map(\.count))")
        #expect(result.lines == ["foreign"])
    }
}

extension CableBadInputTests {
    @Test("a chirp deep in noise is still a sync (the match share it must reach is far below a real chirp's), seeded noise",
          arguments: [-5.0, 0, 10])
    func syncInNoise(snrDB: Double) throws {
        // At −8 dB the correlation's own threshold finds none, with or without the share (measured).
        let signal = try CableModulator(sampleRateHz: Self.rate).render(message: CableRoundTripTests.randomBytes(2_000, seed: 31))
        let padded = [Float](repeating: 0, count: 2_400) + signal + [Float](repeating: 0, count: 2_400)
        let receptions = try CableDemodulator(sampleRateHz: Self.rate).receiveAll(CableNoiseTests.noisy(padded, snrDB: snrDB, seed: 32))
        #expect(receptions.first.map { abs($0.startSample - 2_400) <= 2 } == true, "\(receptions.map(\.summary))")
    }
}
