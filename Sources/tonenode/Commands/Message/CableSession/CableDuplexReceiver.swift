import Foundation
import ToneDSP
import ToneModem
import ToneCommandLine
import ToneFileCommands

/// The receiving half of `send --profile cable -o PATH`: the peer's own
/// session, heard on the same `in` as the answers to ours. Its answers wait
/// in `outgoing`, which the sender plays before its next segment (one output,
/// time-multiplexed: no two processes ever drive one path). The file is
/// written only whole; the half is done once the peer confirmed it (its
/// closing word) or fell silent for `lingerSeconds` after it was written,
/// its answers all played.
///
/// One task at a time uses it (the command's).
struct CableDuplexReceiver {
    let output: String
    let lingerSeconds: Double
    private var session = CableReceiveSession(json: false)
    /// Answers to the peer, played first.
    var outgoing: [CableSessionMessage] = []
    /// A session message of the peer's was heard.
    private(set) var opened = false
    private var wroteFile = false
    private var closed = false
    private var lastHeard = Date()

    init(output: String, lingerSeconds: Double) {
        self.output = output
        self.lingerSeconds = lingerSeconds
    }

    mutating func take(_ reception: CableReception, timeSeconds: Double) throws {
        let outcome = session.take(reception, timeSeconds: timeSeconds)
        outgoing += outcome.answers
        guard outcome.inSession else { return }
        opened = true
        lastHeard = Date()
        if let delivery = outcome.delivery, !wroteFile {
            try DecodeCommand.write(delivery.bytes, to: output)
            Console.err(delivery.summary + "; wrote \(output)")
            wroteFile = true
        }
        closed = closed || outcome.closed
    }

    var isDone: Bool {
        wroteFile && outgoing.isEmpty && (closed || Date().timeIntervalSince(lastHeard) > lingerSeconds)
    }
}
