import Foundation
import ToneDSP

/// What `receive --profile cable` makes of each cable transmission that
/// ended: segments of a transfer go to a `CableTransferAssembler` (a
/// progress line on stderr each), what could not be used is said in one line
/// and counted, and the file comes out only whole. A plain transmission (not
/// a segment: `encode --profile cable` played) is a message of its own.
struct CableTransferOutput {
    let json: Bool
    private(set) var assembler = CableTransferAssembler()
    private var startSeconds: Double?
    private var snrSumDB = 0.0
    private var segments = 0

    init(json: Bool) { self.json = json }

    /// A whole file or a plain message, to print or write.
    struct Delivery {
        let bytes: [UInt8]
        /// The line `receive` prints for it on stdout.
        let line: String
        let summary: String
    }

    /// Takes one transmission; returns what it completed.
    mutating func take(_ reception: CableReception, timeSeconds: Double) -> Delivery? {
        guard let message = reception.message else {
            assembler.countLost()
            Console.err(String(format: "%.3f s: ", timeSeconds) + reception.summary
                        + " (\(assembler.lostSegments) lost so far)")
            return nil
        }
        guard let segment = CableSegment(decoding: message) else {
            return delivery(message, timeSeconds: timeSeconds, snrDB: reception.meanSNRdB,
                            frames: reception.header?.frameCount ?? 0, summary: reception.summary)
        }
        switch assembler.take(segment) {
        case .foreign:
            Console.err(String(format: "%.3f s: ", timeSeconds) + "a segment of another transfer "
                        + "(\(String(segment.transferID, radix: 16)), a second sender?) ignored; "
                        + "\(assembler.foreignSegments) so far")
            return nil
        case .duplicate:
            return nil
        case .added(let complete):
            startSeconds = startSeconds ?? timeSeconds
            snrSumDB += reception.meanSNRdB
            segments += 1
            let received = assembler.receivedBytes
            let total = assembler.totalBytes
            Console.err(String(format: "received %d of %d bytes (%.0f %%), %d segment(s), %d lost", received, total,
                               100 * Double(received) / Double(max(1, total)), segments, assembler.lostSegments))
            guard complete, let file = assembler.file else { return nil }
            let summary = "cable: \(file.count) bytes in \(segments) segment(s), all intact"
                + (assembler.lostSegments > 0 ? " (\(assembler.lostSegments) transmission(s) lost on the way)" : "")
            let done = delivery(file, timeSeconds: startSeconds ?? timeSeconds, snrDB: snrSumDB / Double(segments),
                                frames: segments, summary: summary)
            assembler = CableTransferAssembler()
            startSeconds = nil
            snrSumDB = 0
            segments = 0
            return done
        }
    }

    func delivery(_ bytes: [UInt8], timeSeconds: Double, snrDB: Double, frames: Int, summary: String) -> Delivery {
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
