import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

/// One file one way through a real path: `receive --profile cable -o` on the
/// far server, `send --profile cable --file` on the near one, each wired to
/// the path's ends; what came out, the exit codes and the net rate.
struct CablePathTransfer {
    /// Where `send` plays into and `receive` listens on.
    struct Ends {
        var sendServer: String
        var into: String
        var receiveServer: String
        var outOf: String
    }

    let bytes: [UInt8]
    let written: [UInt8]?
    let sendStatus: Int32
    let receiveStatus: Int32?
    let sendStderr: String
    let receiveStderr: String
    /// From send's start to its exit.
    let seconds: Double
    /// The segments send said it sent.
    let segments: Int
    /// Send's own rate (audio time: bytes × 8 over the seconds it played), kbit/s.
    let sendKbps: Double

    /// Net rate from send's start to its exit, kbit/s.
    var netKbps: Double { Double(bytes.count * 8) / seconds / 1000 }
    var isWhole: Bool { written == bytes }

    /// A tool a path needs: the test fails with this line when it is absent (never a silent skip).
    static func require(_ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let absent = paths.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        try #require(absent.isEmpty, "not installed: \(absent.joined(separator: ", ")) (scripts/install-deps installs them)",
                     sourceLocation: sourceLocation)
    }

    /// `once`, again (three tries at most) only when a transfer did not come
    /// through whole, wrote nothing, and an xrun was said on the way: one way,
    /// nothing resends a segment an xrun cut (this shared machine has no
    /// real-time scheduling). A loss without an xrun is the path's, and stays.
    static func run(_ ends: Ends, count: Int, seed: UInt64, level: Double? = nil,
                    durationSeconds: Double = 30) throws -> CablePathTransfer {
        var attempt = 1
        while true {
            let transfer = try once(ends, count: count, seed: seed, level: level, durationSeconds: durationSeconds)
            let lostToXruns = !transfer.isWhole && transfer.written == nil
                && (transfer.receiveStderr + transfer.sendStderr).contains("xrun")
            guard lostToXruns, attempt < 3 else { return transfer }
            report("cable path: attempt \(attempt) lost a segment to xruns; again")
            attempt += 1
        }
    }

    /// Sends `count` seeded random bytes once; `receive` listens `durationSeconds`
    /// at most (a file not whole never ends it sooner).
    static func once(_ ends: Ends, count: Int, seed: UInt64, level: Double? = nil,
                     durationSeconds: Double = 30) throws -> CablePathTransfer {
        let input = ModemCommandLineTests.temporaryPath("cable-path-in.bin")
        let output = ModemCommandLineTests.temporaryPath("cable-path-out.bin")
        defer { for path in [input, output] { try? FileManager.default.removeItem(atPath: path) } }
        let bytes = JackServerTests.CableLinkTests.randomBytes(count, seed: seed)
        #expect(FileManager.default.createFile(atPath: input, contents: Data(bytes)))
        let name = "rx\(UInt16.random(in: 0...UInt16.max))"
        let receiver = try LiveCommand(["receive", "-s", ends.receiveServer, "-n", name, "--connect-in", ends.outOf,
                                        "--profile", "cable", "-o", output, "--duration", String(durationSeconds)])
        defer { receiver.stop() }
        try waitForPort("\(name):in", server: ends.receiveServer)
        let started = Date()
        let sent = try runCommand(["send", "-s", ends.sendServer, "-n", "tx\(name)", "--connect-out", ends.into,
                                   "--profile", "cable", "--file", input] + (level.map { ["--level", String($0)] } ?? []),
                                  timeoutSeconds: 60)
        let seconds = Date().timeIntervalSince(started)
        // Whole, receive writes and ends; otherwise it listens until its --duration.
        let status = receiver.exitStatus(timeoutSeconds: durationSeconds + 10)?.status
        let match = sent.stderr.firstMatch(of: /sent \d+ bytes in (\d+) segment\(s\).*, ([0-9.]+) kbit\/s/)
        return CablePathTransfer(bytes: bytes, written: FileManager.default.contents(atPath: output).map(Array.init),
                                 sendStatus: sent.status, receiveStatus: status, sendStderr: sent.stderr,
                                 receiveStderr: receiver.stderr, seconds: seconds, segments: match.flatMap { Int($0.1) } ?? 0,
                                 sendKbps: match.flatMap { Double($0.2) } ?? .nan)
    }

    /// The file came through byte for byte, both exits 0, receive's summary said it; the figures reported.
    func expectWhole(_ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sendStatus == 0, "\(label): send: \(sendStderr)", sourceLocation: sourceLocation)
        #expect(isWhole, "\(label): the file did not come through whole; receive: \(receiveStderr)", sourceLocation: sourceLocation)
        #expect(receiveStatus == 0, "\(label): receive: \(receiveStderr)", sourceLocation: sourceLocation)
        #expect(receiveStderr.contains("cable: \(bytes.count) bytes in \(segments) segment(s), all intact"),
                "\(label): \(receiveStderr)", sourceLocation: sourceLocation)
        report(String(format: "cable through %@: %d bytes in %d segment(s) %@, send took %.2f s: %.1f kbit/s from start to exit "
                      + "(%.1f kbit/s on the air)", label, bytes.count, segments, isWhole ? "byte for byte" : "NOT WHOLE",
                      seconds, netKbps, sendKbps))
    }
}
