import ArgumentParser
import Foundation
import ToneAudioFile
import ToneCommandLine
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

struct ReceiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Print the messages sent as tones that arrive on a JACK port `in`.",
        discussion: """
            Listens on `in` and prints each message as it arrives, as `decode` does \
            (--json: one object per line). Never starts a server; waits for one that goes away.
            --profile cable answers a sender's session on `out` (connect it to the sender's `in`).
            Exit status: 0 when a message was received (a session: the whole file written and its \
            SHA-256 sent back), 1 when none or on an error, 64 on a bad option.
            Full guide: messages.md (docs/ in the source, /usr/share/doc/tonenode/ from the .deb).
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions

    @Flag(help: "One JSON object per message.")
    var json = false

    @Option(name: Parameters.receiveProfiles.optionName, help: Parameters.receiveProfiles.argumentHelp)
    var profile: MessageFileProfile?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "Write the first complete message's bytes to this file (nothing on stdout) and stop. With --profile cable, a transfer "
            + "left incomplete then \(Int(CableTransferOutput.idleSeconds)) s without a cable transmission ends it (exit 1).",
        valueName: "path"))
    var output: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds (default: until stopped).", valueName: "seconds"))
    var duration: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many complete messages.", valueName: "n"))
    var count: Int?

    @OptionGroup var reconnect: ReconnectOption

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let output { try OutputFileProblem.requireWritable(path: output) }
        try NodeSettings.validate([.connectOut]) { jack.apply(to: &$0); $0.ports = Self.ports(profile) }
    }

    /// `in` (and `in_k`); `out` with the cable profile, for a session's answers. No MIDI.
    static func ports(_ profile: MessageFileProfile?) -> NodePorts { profile == .cable ? [.audioIn, .audioOut] : [.audioIn] }

    /// Seconds a finished session waits for the sender's closing word (its polls meanwhile answered).
    static let sessionLingerSeconds = 10.0

    func run() async throws {
        var settings = NodeSettings()
        jack.apply(to: &settings)
        settings.muted = true
        settings.analyzesTones = false
        settings.receiveMessages(only: profile)
        settings.ports = Self.ports(profile)
        let supervisor = NodeSupervisor(settings: settings, reconnect: reconnect.reconnects)
        let stop = supervisor.stopRequester
        SignalWatcher.endsOnSignal(stop)
        Console.onOutputFailure(stop)
        var timer: Task<Void, Never>?
        let answers = CableAnswerQueue()
        var answering: Task<Void, Never>?
        var linger: Task<Void, Never>?
        /// With -o, ends the wait for a transfer left incomplete (a sender that died, a last segment lost).
        var idle: Task<Void, Never>?
        defer { for task in [timer, answering, linger, idle] { task?.cancel() } }
        var delivered = 0
        /// --count (or -o's one file) reached: what arrives while the node stops is not taken.
        var done = false
        let printer = MessageOutput(json: json)
        var transfer = CableReceiveSession(json: json)
        var writeError: Error?
        var sessionDelivered = false
        /// A session's file is delivered: stop once the sender says it has the digest, or after the linger.
        var stopsAfterSession = false
        /// Prints the message, or writes its bytes to --output; stops after --count (or one, with --output)
        /// (a session's: once the session is over).
        func deliver(_ bytes: [UInt8], line: String, summary: String?, inSession: Bool = false) {
            if let output {
                do {
                    try DecodeCommand.write(bytes, to: output)
                    Console.err((summary.map { $0 + "; " } ?? "received \(bytes.count) bytes; ") + "wrote \(output)")
                } catch {
                    writeError = error
                    stop()
                    return
                }
            } else {
                Console.out(line)
            }
            delivered += 1
            sessionDelivered = sessionDelivered || inSession
            if let count = count ?? (output == nil ? nil : 1), delivered >= count {
                // A session's end is the sender's closing word (or the linger): what comes until then is answered.
                if inSession {
                    stopsAfterSession = true
                } else {
                    done = true
                    stop()
                }
            }
        }
        let outcome = try await supervisor.run { event in
            switch event {
            case .opened(let node, let reconnected):
                let profiles = (profile.map { [$0] } ?? ModemProfile.allCases.filter {
                    $0.parameters.problem(sampleRateHz: node.engine.sampleRateHz) == nil
                }.map { .tones($0) }).map(\.rawValue)
                Console.err((reconnected ? "reconnected: " : "") + "client '\(node.client.name)' at "
                            + "\(node.client.sampleRateHz) Hz, \(node.client.bufferFrames) frames/period; "
                            + "listening on \(node.inputPortName) for \(profiles.joined(separator: ", "))")
                if !reconnected { jack.renameWarnings(actualName: node.client.name).forEach { Console.err($0) } }
                if profile == .cable {
                    answering?.cancel()
                    let engine = node.engine
                    answering = Task { await answers.play(on: engine) }
                }
                if timer == nil, let duration {
                    timer = Task {
                        try? await Task.sleep(for: .seconds(duration))
                        if !Task.isCancelled { stop() }
                    }
                }
            case .message(.cable(let reception, let seconds), _, let offset):
                guard !done else { break }
                let outcome = transfer.take(reception, timeSeconds: seconds + offset)
                outcome.answers.forEach(answers.send)
                idle?.cancel()
                idle = nil
                if output != nil, transfer.isPending {
                    idle = Task {
                        try? await Task.sleep(for: .seconds(CableTransferOutput.idleSeconds))
                        if !Task.isCancelled { stop() }
                    }
                }
                if let delivery = outcome.delivery {
                    deliver(delivery.bytes, line: delivery.line, summary: delivery.summary, inSession: outcome.inSession)
                }
                guard outcome.inSession, stopsAfterSession else { break }
                linger?.cancel()
                if outcome.closed {
                    stop()
                } else {
                    linger = Task {
                        try? await Task.sleep(for: .seconds(Self.sessionLingerSeconds))
                        if !Task.isCancelled { stop() }
                    }
                }
            case .message(let message, _, let offset):
                guard let bytes = message.deliveredBytes else {
                    printer.print(message, timeOffsetSeconds: offset)
                    break
                }
                deliver(bytes, line: json ? MessageFormatter.json(message, timeOffsetSeconds: offset)
                                          : MessageFormatter.human(message, timeOffsetSeconds: offset), summary: nil)
            case .report:
                break
            case .trouble(let xruns, let overflows, let dropped):
                Console.err("\(xruns) xrun(s); \(overflows) input ring overflow(s), \(dropped) frames not analysed")
            case .periodChanged(let frames):
                Console.err(NodeOutput.periodChangedLine(frames))
            case .callbackProfile(let profile):
                Console.err(profile.summary)
            case .sampleRateChanged(let from, let to):
                Console.err(ServerNotice.sampleRateChangedLine(fromHz: from, toHz: to))
            case .serverGone(let retrying):
                Console.err(ServerNotice.goneLine(retrying: retrying))
            case .connectionsPending(let connections):
                Console.err("not yet restored (retrying): " + connections.map(\.description).joined(separator: ", "))
            case .connectionsRestored(let connections):
                Console.err("restored: " + connections.map(\.description).joined(separator: ", "))
            }
        }
        if let writeError { throw writeError }
        if profile == .cable, !done, let line = transfer.endLine(delivered: delivered, signalled: SignalWatcher.isStopRequested) {
            Console.err(line)
            throw ExitCode.failure
        }
        if outcome == .serverGone || delivered == 0 { throw ExitCode.failure }
        // A session's file counts once its digest went back to the sender.
        if sessionDelivered && answers.digestAnswersPlayed == 0 {
            throw ModemCommandError("the file was written but its SHA-256 never went back to the sender")
        }
    }
}

/// Prints received messages on stdout, one line each, as `decode` does.
struct MessageOutput {
    let json: Bool

    func print(_ event: ModemEvent, timeOffsetSeconds: Double = 0) {
        Console.out(json ? MessageFormatter.json(event, timeOffsetSeconds: timeOffsetSeconds)
                         : MessageFormatter.human(event, timeOffsetSeconds: timeOffsetSeconds))
    }
}
