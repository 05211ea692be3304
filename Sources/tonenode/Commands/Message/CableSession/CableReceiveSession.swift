import Foundation
import ToneDSP
import ToneModem
import ToneFileCommands

/// What `receive --profile cable` makes of each cable transmission that
/// ended, sessions included. A probe or a poll opens a session for its
/// transfer: that transfer's segments, the transmissions lost meanwhile and
/// the sender's closing word go to a `CableSessionReceiver`, whose answers
/// the command plays on `out` (`CableAnswerQueue`); the file is delivered
/// once, with its SHA-256 (sent back to the sender in the answer). Everything
/// else (a one-way stream's segments, a plain message, a loss outside a
/// session) goes to `CableTransferOutput` as before. Answers heard (another
/// session's) are not messages: they are dropped.
///
/// One task at a time uses it (the command's).
struct CableReceiveSession {
    var oneWay: CableTransferOutput
    private var receiver = CableSessionReceiver(digest: SHA256.digest)
    /// The transfer a probe or a poll opened.
    private var session: UInt32?
    /// When the session opened (wall clock: what the transfer took, decoding included).
    private var openedAt = Date()
    private var startSeconds: Double?
    private var snrSumDB = 0.0
    private var segments = 0
    private var deliveredFile = false
    private var progress = CableProgressLine()

    init(json: Bool) { oneWay = CableTransferOutput(json: json) }

    /// What one transmission did.
    struct Outcome {
        var delivery: CableTransferOutput.Delivery?
        /// Answers to play on `out`.
        var answers: [CableSessionMessage] = []
        /// It belonged to a session (the command then waits for the session's end before it stops).
        var inSession = false
        /// The sender confirmed the file delivered: the session is over.
        var closed = false
    }

    mutating func take(_ reception: CableReception, timeSeconds: Double) -> Outcome {
        let message = reception.message.flatMap(CableSessionMessage.init(decoding:))
        switch message {
        case .probe(let id)?, .poll(let id, _)?:
            if session != id { open(id) }
        case .segment(let segment)? where segment.transferID == session:
            break
        case .finished?:
            break
        case .acknowledgement?:
            return Outcome()
        case nil where reception.message == nil && session != nil && !deliveredFile:
            if let damaged = CableSegment.parts(of: reception), damaged.parts.first?.transferID == session {
                return takeParts(damaged.parts, end: damaged.end, of: reception, timeSeconds: timeSeconds)
            }
            progress.say(String(format: "%.3f s: ", timeSeconds) + reception.summary
                         + " (\(receiver.lostTransmissions + 1) lost so far; the sender resends)")
        default:
            return Outcome(delivery: oneWay.take(reception, timeSeconds: timeSeconds))
        }
        var outcome = Outcome(inSession: true)
        if case .segment? = message {
            startSeconds = startSeconds ?? timeSeconds
            snrSumDB += reception.meanSNRdB
            segments += 1
        }
        for action in receiver.heard(message, bandSNRdB: reception.planningSNRdB, lostToDropout: reception.lostOnlyToDropouts) {
            switch action {
            case .transmit(let answer): outcome.answers.append(answer)
            case .closed: outcome.closed = true
            case .delivered(let file):
                outcome.delivery = delivery(file, timeSeconds: timeSeconds)
            }
        }
        if case .segment? = message, outcome.delivery == nil {
            let received = receiver.assembler.receivedBytes
            let total = receiver.assembler.totalBytes
            progress.update(String(format: "cable session: received %d of %d bytes (%.0f %%), %d segment(s), %d lost",
                                   received, total, 100 * Double(received) / Double(max(1, total)), segments,
                                   receiver.lostTransmissions), nowSeconds: timeSeconds)
        }
        return outcome
    }

    /// A segment of the session that arrived in part: its intact frames kept, one line.
    private mutating func takeParts(_ parts: [CableSegment], end: Int, of reception: CableReception,
                                    timeSeconds: Double) -> Outcome {
        let kept = parts.reduce(0) { $0 + $1.data.count }
        let frames = reception.header?.frameCount ?? 0
        progress.say(String(format: "%.3f s: ", timeSeconds) + "cable: \(reception.damagedFrames + reception.truncatedFrames) of "
                     + "\(frames) frame(s) of a segment missing; its intact frames' \(kept) bytes kept (the sender resends the rest)")
        startSeconds = startSeconds ?? timeSeconds
        snrSumDB += reception.meanSNRdB
        segments += 1
        var outcome = Outcome(inSession: true)
        for action in receiver.heard(parts: parts, end: end, bandSNRdB: reception.planningSNRdB,
                                     lostToDropout: reception.lostOnlyToDropouts) {
            switch action {
            case .transmit(let answer): outcome.answers.append(answer)
            case .closed: outcome.closed = true
            case .delivered(let file): outcome.delivery = delivery(file, timeSeconds: timeSeconds)
            }
        }
        return outcome
    }

    /// A transfer under way, not whole yet: a session's, or a one-way stream's.
    var isPending: Bool { session != nil ? !deliveredFile : oneWay.assembler.isPending }

    /// The line `receive` ends with when it has one: a session or a transfer
    /// left incomplete, or no cable transmission heard at all.
    func endLine(delivered: Int, signalled: Bool) -> String? {
        guard session != nil, !deliveredFile else { return oneWay.endLine(delivered: delivered, signalled: signalled) }
        return "cable session: the sender fell silent with \(receiver.assembler.receivedBytes) of "
            + "\(receiver.assembler.totalBytes) bytes in; nothing written"
    }

    private mutating func open(_ id: UInt32) {
        session = id
        openedAt = Date()
        startSeconds = nil
        snrSumDB = 0
        segments = 0
        deliveredFile = false
    }

    private mutating func delivery(_ file: [UInt8], timeSeconds: Double) -> CableTransferOutput.Delivery {
        deliveredFile = true
        let seconds = Date().timeIntervalSince(openedAt)
        let again = receiver.assembler.duplicateSegments
        let summary = String(format: "cable session: %d bytes in %.2f s, %.1f kbit/s net, %d segment(s), %d lost and resent, "
                             + "%d twice; SHA-256 %@ sent back", file.count, seconds,
                             CableProgressLine.kilobitsPerSecond(file.count, seconds), segments, receiver.lostTransmissions, again,
                             SHA256.hex(SHA256.digest(file)))
        progress.clear()
        let done = oneWay.delivery(file, timeSeconds: startSeconds ?? timeSeconds, snrDB: snrSumDB / Double(max(1, segments)),
                                   frames: segments, summary: summary)
        return done
    }
}
