import ArgumentParser
import Foundation
import ToneDSP
import ToneModem
import ToneEngine
import ToneCommandLine
import ToneFileCommands

extension SendCommand {
    /// Whether `send --profile cable` has a return path: a port connected to
    /// its `in` (asked with --connect-in: once that connection can show, up to
    /// 1 s; else what is there now, a patchbay's). With -o (two ways) it waits
    /// up to --timeout for the peer to connect both `in` and `out`.
    func hasReturnPath(_ node: Node) async -> Bool {
        guard !node.inputPortName.isEmpty else { return false }
        guard output != nil else {
            if jack.connectIn.isEmpty { return !node.client.connections(ofPort: node.inputPortName).isEmpty }
            return node.client.hasConnections(ofPort: node.inputPortName, abandon: node.serverGoneReader)
        }
        let deadline = Date().addingTimeInterval(timeout ?? Self.defaultTimeoutSeconds)
        while Date() < deadline && !SignalWatcher.isStopRequested && !node.serverGoneReader() {
            if [node.inputPortName, node.outputPortName].allSatisfy({ !node.client.connections(ofPort: $0).isEmpty }) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    static let defaultTimeoutSeconds = 36.0

    /// `send --profile cable` with a return path: a session (`CableSessionSender`),
    /// and with -o the peer's session too (`CableDuplexReceiver`), both on the
    /// one output. Transmissions are rendered on this task while the one
    /// before plays (`NodePlayback.play(parts:)`: the JACK thread only copies); what
    /// the worker decodes on `in` comes through `CableInbox`. Every wait is
    /// bounded: an answer that does not come is polled for, then one line and exit 1.
    func sendCableSession(_ file: [UInt8], on node: Node) async throws {
        let rate = node.sampleRateHz
        let peak = Float(pow(10, level / 20))
        let control = try ModemCommandError.cableSetup {
            try CableModulator(sampleRateHz: rate, plan: CableSessionMessage.controlPlan, peakLevel: peak)
        }
        var data = control
        var sender = CableSessionSender(transferID: .random(in: 0...UInt32.max), file: file, digest: SHA256.digest(file),
                                        carrierCount: control.geometry.carrierCount)
        // Two ways, an answer waits behind the segment playing and the queue ahead of it.
        if output != nil { sender.answerTimeoutSeconds = 12 }
        let budget = timeout ?? Self.defaultTimeoutSeconds
        sender.maximumPolls = max(0, Int((budget / sender.answerTimeoutSeconds).rounded(.up)) - 1)
        // The peer may poll as late as `answerTimeoutSeconds` after its last transmission: stay for two of those.
        var duplex = output.map { CableDuplexReceiver(output: $0, lingerSeconds: 2 * sender.answerTimeoutSeconds) }
        let inbox = CableInbox()
        let events = node.events
        let listener = Task {
            for await event in events {
                if case .message(.cable(let reception, let seconds), _) = event { inbox.post(reception, timeSeconds: seconds) }
            }
        }
        defer { listener.cancel() }
        let serverGone = node.serverGoneReader
        let start = Date()
        func now() -> Double { Date().timeIntervalSince(start) }
        var progress = CableProgressLine()
        var sentBytes = 0
        func showProgress() {
            let text = sender.phase == .probing ? "cable session: probing the path"
                : String(format: "cable session: the receiver has %d of %d bytes (%.0f %%); %d bytes sent, %d segment(s) resent, %.1f s",
                         sender.confirmedBytes, file.count, 100 * Double(sender.confirmedBytes) / Double(file.count), sentBytes,
                         sender.resentSegments, now())
            progress.update(text, nowSeconds: now())
        }
        /// nil while the own transfer runs; then nil inside for confirmed, or the failure's line.
        var ended: String??
        var confirmedAt = 0.0
        var pending = sender.start()
        /// Answers to our segments go to the sender, the peer's session (two ways) to `duplex`.
        func drain() throws {
            for (reception, seconds) in inbox.take() {
                let message = reception.message.flatMap(CableSessionMessage.init(decoding:))
                if case .acknowledgement? = message, let message {
                    if ended == nil { pending += sender.heard(message, now: now()) }
                } else {
                    try duplex?.take(reception, timeSeconds: seconds)
                }
            }
        }
        while true {
            var burst: [CableSessionMessage] = []
            for action in pending {
                switch action {
                case .transmit(let message): burst.append(message)
                case .usePlan(let plan):
                    data = try ModemCommandError.cableSetup { try CableModulator(sampleRateHz: rate, plan: plan, peakLevel: peak) }
                case .confirmed:
                    ended = .some(nil)
                    confirmedAt = now()
                case .failed(let line): ended = .some(line)
                }
            }
            pending = []
            let own = !burst.isEmpty
            if own || duplex?.outgoing.isEmpty == false {
                var index = 0
                let played = try await node.playback.play(parts: {
                    try drain()
                    // Answers go before each own transmission, not after the last: the
                    // answer to this round must find the machine waiting, not still sending.
                    if !own || index < burst.count, let answer = duplex?.outgoing.first {
                        duplex?.outgoing.removeFirst()
                        return try control.render(message: answer.encoded)
                    }
                    guard index < burst.count else { return nil }
                    defer { index += 1 }
                    guard case .segment(let segment) = burst[index] else { return try control.render(message: burst[index].encoded) }
                    sentBytes += segment.data.count
                    showProgress()
                    return try data.render(message: burst[index].encoded)
                }, shouldStop: { SignalWatcher.isStopRequested || serverGone() })
                if !played { try Self.stopped(serverGone: serverGone(), progress: &progress) }
                // What came while the burst played: the sender keeps an answer to this round for `transmitted`.
                try drain()
                if own && pending.isEmpty && ended == nil { pending = sender.transmitted(now: now()) }
            }
            if case .some(.some(let line)) = ended {
                progress.clear()
                throw ModemCommandError(line)
            }
            while pending.isEmpty && duplex?.outgoing.isEmpty != false {
                if ended != nil {
                    guard let peer = duplex, !peer.isDone else {
                        progress.clear()
                        return Self.sayConfirmed(sender, data.plan, seconds: confirmedAt)
                    }
                    if !peer.opened && now() - confirmedAt > budget {
                        throw ModemCommandError("the file went and was confirmed, but no file came back from the peer "
                                                + String(format: "within %.0f s", budget))
                    }
                }
                if SignalWatcher.isStopRequested || serverGone() { try Self.stopped(serverGone: serverGone(), progress: &progress) }
                try drain()
                if pending.isEmpty && ended == nil { pending = sender.tick(now: now()) }
                if pending.isEmpty && duplex?.outgoing.isEmpty != false {
                    if ended == nil { showProgress() }
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
        }
    }

    /// The session's last line: what went, how fast, and the digest both sides hold.
    private static func sayConfirmed(_ sender: CableSessionSender, _ plan: CablePlan, seconds: Double) {
        let bits = plan.bandBits.filter { $0 > 0 }
        Console.err(String(format: "cable session: %d bytes confirmed in %.2f s, %.1f kbit/s net, %d segment(s) resent, "
                           + "%d-%d bit QAM at rate %.3f; SHA-256 %@ equal on both sides",
                           sender.file.count, seconds, CableProgressLine.kilobitsPerSecond(sender.file.count, seconds),
                           sender.resentSegments, bits.min() ?? 0, bits.max() ?? 0, plan.codeRate.value,
                           SHA256.hex(sender.digest)))
    }

    /// A signal or a server gone in the middle of a session: exit 1 (a signal: 128 + it).
    private static func stopped(serverGone: Bool, progress: inout CableProgressLine) throws -> Never {
        progress.clear()
        if SignalWatcher.isStopRequested { throw ExitCode.failure }
        if serverGone {
            Console.err(ServerNotice.goneLine(retrying: false))
            throw ExitCode.failure
        }
        throw ModemCommandError("the JACK server stopped taking samples before the session had ended")
    }
}
