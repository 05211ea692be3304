import Foundation
import ToneDSP
import ToneModem
import ToneCommandLine

/// What `receive --profile cable` (and `decode` of a recording of it) makes
/// of each cable transmission that ended: segments of a transfer go to a
/// `CableTransferAssembler` (a progress line on stderr each, with
/// `progress`), what could not be used is said in one line and counted, and
/// the file comes out only whole. A plain transmission (not a segment:
/// `encode --profile cable` played) is a message of its own; a session's
/// control transmission (a probe, an answer… in a recording of a session)
/// is none, counted and said.
public struct CableTransferOutput {
    public let json: Bool
    /// Say each segment, loss and foreign segment on stderr as it comes (`receive`); `decode` says one line at the end.
    public let progress: Bool
    /// Where those lines go (`run` with a live view: above it).
    public let diagnostics: @Sendable (String) -> Void
    public private(set) var assembler = CableTransferAssembler()
    private var startSeconds: Double?
    private var snrSumDB = 0.0
    /// Transmissions heard in all (any transfer, lost ones too).
    private(set) var heard = 0
    /// A session's control transmissions heard (probe, poll, answer, closing word): not messages.
    private(set) var controlTransmissions = 0

    public init(json: Bool, progress: Bool = true, diagnostics: @escaping @Sendable (String) -> Void = { Console.err($0) }) {
        self.json = json
        self.progress = progress
        self.diagnostics = diagnostics
    }

    /// A whole file or a plain message, to print or write.
    public struct Delivery {
        public let bytes: [UInt8]
        /// The line `receive` prints for it on stdout.
        public let line: String
        public let summary: String
    }

    /// One line for the transfer followed when it is not whole (nil when none is).
    public var incompleteSummary: String? { assembler.incompleteSummary }

    /// Seconds `receive -o` waits, after a transfer left incomplete, for another cable transmission
    /// (a segment lasts about 3 s, and the next one follows at once).
    public static let idleSeconds = 10.0

    /// The line `receive` ends with when it has one: a transfer left incomplete, or (nothing
    /// delivered, no signal stopped it) no cable transmission heard at all.
    public func endLine(delivered: Int, signalled: Bool) -> String? {
        if let incompleteSummary { return incompleteSummary }
        return heard == 0 && delivered == 0 && !signalled ? "no cable transmission found" : nil
    }

    /// Takes one transmission; returns what it completed.
    public mutating func take(_ reception: CableReception, timeSeconds: Double) -> Delivery? {
        heard += 1
        let time = String(format: "%.3f s: ", timeSeconds)
        if let control = CableSessionMessage.control(in: reception) {
            controlTransmissions += 1
            say(time + "a cable session's \(control.name), not a message: sessions are answered by receive --profile cable")
            return nil
        }
        switch assembler.take(reception) {
        case .lost:
            say(time + reception.summary + " (\(assembler.lostSegments) lost so far)")
            return nil
        case .plain(let message):
            return delivery(message, timeSeconds: timeSeconds, snrDB: reception.meanSNRdB,
                            frames: reception.header?.frameCount ?? 0, summary: reception.summary)
        case .segment(let segment, let outcome, let abandoned):
            if let abandoned {
                say(time + abandoned + " (a new transfer began)")
                startSeconds = nil
                snrSumDB = 0
            }
            return taken(segment, outcome, reception: reception, timeSeconds: timeSeconds)
        }
    }

    private mutating func taken(_ segment: CableSegment, _ outcome: CableTransferAssembler.Outcome, reception: CableReception,
                                timeSeconds: Double) -> Delivery? {
        switch outcome {
        case .foreign:
            say(String(format: "%.3f s: ", timeSeconds) + "a segment of another transfer "
                + "(\(String(segment.transferID, radix: 16)), a second sender?) ignored; "
                + "\(assembler.foreignSegments) so far")
            return nil
        case .duplicate:
            return nil
        case .added(let complete):
            startSeconds = startSeconds ?? timeSeconds
            snrSumDB += reception.meanSNRdB
            let received = assembler.receivedBytes
            let total = assembler.totalBytes
            let segments = assembler.addedSegments
            say(String(format: "received %d of %d bytes (%.0f %%), %d segment(s), %d lost", received, total,
                       100 * Double(received) / Double(max(1, total)), segments, assembler.lostSegments))
            guard complete, let file = assembler.file else { return nil }
            let summary = "cable: \(file.count) bytes in \(segments) segment(s), all intact"
                + (assembler.lostSegments > 0 ? " (\(assembler.lostSegments) transmission(s) lost on the way)" : "")
            let done = delivery(file, timeSeconds: startSeconds ?? timeSeconds, snrDB: snrSumDB / Double(segments),
                                frames: segments, summary: summary)
            assembler = CableTransferAssembler()
            startSeconds = nil
            snrSumDB = 0
            return done
        }
    }

    private func say(_ line: String) {
        if progress { diagnostics(line) }
    }

    public func delivery(_ bytes: [UInt8], timeSeconds: Double, snrDB: Double, frames: Int, summary: String) -> Delivery {
        let line: String
        if json {
            var object = JSONLine()
            object.add("time_s", timeSeconds, .decimals(4))
            MessageFormatter.addCable(bytes, snrDB: snrDB, frames: frames, to: &object)
            line = object.description
        } else {
            line = MessageFormatter.cableHuman(bytes, timeSeconds: timeSeconds, snrDB: snrDB)
        }
        return Delivery(bytes: bytes, line: line, summary: summary)
    }
}
