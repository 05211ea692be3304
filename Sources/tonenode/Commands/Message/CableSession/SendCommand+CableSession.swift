import ArgumentParser
import Foundation
import ToneDSP
import ToneEngine

extension SendCommand {
    /// Whether `send --profile cable` has a return path: a port connected to
    /// its `in` (asked with --connect-in: once that connection can show, up to
    /// 1 s; else what is there now, a patchbay's).
    func hasReturnPath(_ node: Node) -> Bool {
        guard !node.inputPortName.isEmpty else { return false }
        if jack.connectIn.isEmpty { return !node.client.connections(ofPort: node.inputPortName).isEmpty }
        return node.client.hasConnections(ofPort: node.inputPortName, abandon: node.serverGoneReader)
    }

    /// `send --profile cable` with a return path: a session (`CableSessionSender`).
    /// Transmissions are rendered on this task while the one before plays
    /// (`Engine.play(parts:)`: the JACK thread only copies); the answers the
    /// worker decodes on `in` come through `CableInbox`. Every wait is bounded:
    /// an answer that does not come is polled for, then one line and exit 1.
    func sendCableSession(_ file: [UInt8], on node: Node) async throws {
        let rate = node.engine.sampleRateHz
        let peak = Float(pow(10, level / 20))
        let control: CableModulator
        do {
            control = try CableModulator(sampleRateHz: rate, plan: CableSessionMessage.controlPlan, peakLevel: peak)
        } catch let error as CableModulator.SetupError {
            throw ModemCommandError(error.description)
        }
        var data = control
        let digest = SHA256.digest(file)
        var sender = CableSessionSender(transferID: .random(in: 0...UInt32.max), file: file, digest: digest,
                                        carrierCount: control.geometry.carrierCount)
        sender.maximumPolls = max(0, Int(((timeout ?? 36) / sender.answerTimeoutSeconds).rounded(.up)) - 1)
        let inbox = CableInbox()
        let events = node.events
        let listener = Task {
            for await event in events {
                guard case .message(.cable(let reception, _), _) = event, let bytes = reception.message,
                      let message = CableSessionMessage(decoding: bytes) else { continue }
                inbox.post(message)
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
        var pending = sender.start()
        while true {
            var burst: [CableSessionMessage] = []
            var ended: String??
            for action in pending {
                switch action {
                case .transmit(let message): burst.append(message)
                case .usePlan(let plan):
                    do {
                        data = try CableModulator(sampleRateHz: rate, plan: plan, peakLevel: peak)
                    } catch let error as CableModulator.SetupError {
                        throw ModemCommandError(error.description)
                    }
                case .confirmed: ended = .some(nil)
                case .failed(let line): ended = .some(line)
                }
            }
            pending = []
            var index = 0
            let played = try await node.engine.play(parts: {
                guard index < burst.count else { return nil }
                defer { index += 1 }
                guard case .segment(let segment) = burst[index] else { return try control.render(message: burst[index].encoded) }
                sentBytes += segment.data.count
                showProgress()
                return try data.render(message: burst[index].encoded)
            }, shouldStop: { SignalWatcher.isStopRequested || serverGone() })
            if !played { try Self.stopped(serverGone: serverGone(), progress: &progress) }
            if let ended {
                progress.clear()
                guard let line = ended else { return Self.sayConfirmed(sender, data.plan, seconds: now()) }
                throw ModemCommandError(line)
            }
            // What came while the burst played answers an earlier round (the machine drops it while sending).
            for message in inbox.take() { pending += sender.heard(message, now: now()) }
            if pending.isEmpty { sender.transmitted(now: now()) }
            while pending.isEmpty {
                if SignalWatcher.isStopRequested || serverGone() { try Self.stopped(serverGone: serverGone(), progress: &progress) }
                for message in inbox.take() { pending += sender.heard(message, now: now()) }
                if pending.isEmpty { pending = sender.tick(now: now()) }
                if pending.isEmpty {
                    showProgress()
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
