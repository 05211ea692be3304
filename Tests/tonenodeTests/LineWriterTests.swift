import Foundation
import Testing
import ToneEngine
@testable import tonenode

/// `LineWriter` on the descriptors stdout may be: a regular file (or
/// /dev/null) gets its lines in blocks (a page, or `holdSeconds` after the
/// last write, or at `finish`); a pipe or another device gets each line at
/// the first flush after it.
@Suite("LineWriter: blocks to a regular file, each line to a pipe")
struct LineWriterTests {
    /// An empty temporary file, open for writing; removed with the value.
    final class TempFile {
        let path = NSTemporaryDirectory() + "tn-linewriter-\(UUID().uuidString)"
        let descriptor: Int32

        init() throws {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            try #require(descriptor >= 0, "open \(path): \(String(cString: strerror(errno)))")
        }

        deinit {
            close(descriptor)
            unlink(path)
        }

        var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    }

    /// A JSON-like line of `bytes` bytes (the newline not counted), numbered.
    static func line(_ number: Int, bytes: Int = 100) -> String {
        let head = "{\"n\":\(number),\"pad\":\""
        return head + String(repeating: "x", count: max(0, bytes - head.count - 2)) + "\"}"
    }

    @Test("a regular file: a line waits for its time, then goes out at the next flush")
    func regularFileHoldsUntilTheDeadline() throws {
        let file = try TempFile()
        let writer = LineWriter(descriptor: file.descriptor, holdSeconds: 0.05)
        #expect(writer.writesInBlocks)
        #expect(writer.secondsUntilWriteDue == nil, "nothing waits yet")
        writer.append(Self.line(1))
        usleep(100_000)
        #expect(writer.secondsUntilWriteDue == 0)
        #expect(writer.flush())
        #expect(file.text == Self.line(1) + "\n")
        #expect(writer.pendingBytes == 0 && writer.secondsUntilWriteDue == nil)
    }

    @Test("a regular file: lines under a block are not written before their time, and all are at finish")
    func regularFileHoldsUntilFinish() throws {
        let file = try TempFile()
        // A deadline no test run reaches: only the size or finish can write.
        let writer = LineWriter(descriptor: file.descriptor, holdSeconds: 60)
        let lines = (1...20).map { Self.line($0) }   // 2020 bytes: under a block
        for line in lines {
            writer.append(line)
            #expect(!writer.flush(), "held back")
        }
        #expect(file.text.isEmpty, "written before the deadline: \(file.text.prefix(200))")
        #expect(writer.pendingBytes == 20 * 101)
        let due = try #require(writer.secondsUntilWriteDue)
        #expect(due > 50 && due <= 60)
        writer.finish(waitingAtMostSeconds: 0.5)
        #expect(file.text == lines.map { $0 + "\n" }.joined())
        #expect(writer.pendingBytes == 0 && writer.droppedLines == 0)
    }

    @Test("a regular file flushed once per batch, a little over the hold apart: each batch goes out at its own flush")
    func regularFileWritesEachBatch() throws {
        let file = try TempFile()
        let writer = LineWriter(descriptor: file.descriptor, holdSeconds: 0.05)
        var lines: [String] = []
        for batch in 0..<4 {
            usleep(60_000)
            // A batch made just now: it waits for no hold of its own (the last write was a batch ago).
            let made = (0..<3).map { Self.line(10 * batch + $0) }
            made.forEach(writer.append)
            lines += made
            #expect(writer.flush(), "batch \(batch) held")
            #expect(file.text == lines.map { $0 + "\n" }.joined(), "batch \(batch)")
        }
        // And a line made right after a write waits for the hold.
        writer.append(Self.line(99))
        #expect(!writer.flush())
        let due = try #require(writer.secondsUntilWriteDue)
        #expect(due > 0 && due <= 0.05)
    }

    @Test("a regular file: once a block is pending, one flush writes every whole line")
    func regularFileWritesABlock() throws {
        let file = try TempFile()
        let writer = LineWriter(descriptor: file.descriptor, holdSeconds: 60)
        // 40 lines of 101 bytes: 4040, under 4096; the 41st makes 4141.
        let lines = (1...41).map { Self.line($0) }
        for line in lines.dropLast() {
            writer.append(line)
            writer.flush()
        }
        #expect(file.text.isEmpty)
        writer.append(lines[40])
        #expect(writer.secondsUntilWriteDue == 0)
        #expect(writer.flush())
        #expect(file.text == lines.map { $0 + "\n" }.joined())
        // And the next line waits again.
        writer.append(Self.line(42))
        writer.flush()
        #expect(file.text.hasSuffix(lines[40] + "\n"))
        #expect(writer.pendingBytes == 101)
    }

    @Test("a regular file: flush(now:) writes what is held (the server went away)")
    func regularFileFlushNow() throws {
        let file = try TempFile()
        let writer = LineWriter(descriptor: file.descriptor, holdSeconds: 60)
        writer.append(Self.line(1))
        writer.flush()
        #expect(file.text.isEmpty)
        #expect(writer.flush(now: true))
        #expect(file.text == Self.line(1) + "\n")
    }

    @Test("lines beyond the capacity drop the oldest, never the newest: a line longer than the capacity alone goes out whole")
    func longLineKept() throws {
        let file = try TempFile()
        let writer = LineWriter(descriptor: file.descriptor, capacityBytes: 1000, holdSeconds: 60)
        writer.append(Self.line(1))
        writer.append(Self.line(2))
        // A file received whole (`run --receive-profile cable`) as one line: five times the capacity.
        let long = Self.line(3, bytes: 5000)
        writer.append(long)
        #expect(writer.droppedLines == 2)
        writer.append(Self.line(4))
        #expect(writer.droppedLines == 3)
        writer.append(Self.line(5))
        #expect(writer.droppedLines == 3)
        #expect(writer.flush(now: true))
        #expect(file.text == Self.line(4) + "\n" + Self.line(5) + "\n")
        writer.append(long)
        #expect(writer.flush(now: true))
        #expect(file.text == Self.line(4) + "\n" + Self.line(5) + "\n" + long + "\n")
    }

    @Test("a pipe: every flush writes at once, whatever the block and the deadline")
    func pipeWritesEachLine() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let writer = LineWriter(descriptor: ends[1], holdSeconds: 60)
        #expect(!writer.writesInBlocks)
        var buffer = [UInt8](repeating: 0, count: 65536)
        for number in 1...3 {
            writer.append(Self.line(number))
            #expect(writer.secondsUntilWriteDue == nil)
            #expect(writer.flush())
            let count = read(ends[0], &buffer, buffer.count)
            #expect(count == 101)
            #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == Self.line(number) + "\n")
        }
    }

    @Test("/dev/null, which nobody reads, takes blocks as a regular file does; /dev/zero, another character device, as a pipe")
    func characterDevices() throws {
        for (path, blocks) in [("/dev/null", true), ("/dev/zero", false)] {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let writer = LineWriter(descriptor: descriptor, holdSeconds: 60)
            #expect(writer.writesInBlocks == blocks, "\(path)")
            writer.append(Self.line(1))
            #expect(writer.flush() != blocks, "\(path)")
            #expect(writer.flush(now: true))
            #expect(writer.pendingBytes == 0)
        }
    }

    @Test("the sink hands its writer's deadline to the worker (ReportSink.secondsUntilFlushDue)")
    func sinkSaysWhenItsLinesAreDue() throws {
        let file = try TempFile()
        let sink: any ReportSink = ReportLineSink(json: true, listTones: false, channels: 1, durationSeconds: nil, stop: {},
                                                  writer: LineWriter(descriptor: file.descriptor, holdSeconds: 60))
        #expect(sink.secondsUntilFlushDue == nil)
        sink.take(GoldenFixtures.noTone)
        sink.flush()
        #expect(file.text.isEmpty)
        let due = try #require(sink.secondsUntilFlushDue)
        #expect(due > 50 && due <= 60)
    }

    @Test("the sink asks the worker to wake once per block for a regular file (ReportSink.batchSeconds), once a hop for a pipe")
    func sinkBatchesForFilesOnly() throws {
        let file = try TempFile()
        let filed: any ReportSink = ReportLineSink(json: true, listTones: false, channels: 1, durationSeconds: nil, stop: {},
                                                   writer: LineWriter(descriptor: file.descriptor, holdSeconds: 0.25))
        // A little over the hold: each wake finds the hold since the last write over.
        #expect(filed.batchSeconds == 0.25 + ReportLineSink.batchMarginSeconds)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let piped: any ReportSink = ReportLineSink(json: true, listTones: false, channels: 1, durationSeconds: nil, stop: {},
                                                   writer: LineWriter(descriptor: ends[1], holdSeconds: 0.25))
        #expect(piped.batchSeconds == nil)
    }
}
