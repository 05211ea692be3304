import ArgumentParser
import Foundation
import ToneCore
import ToneModem
import ToneEngine
import ToneCommandLine
import ToneFileCommands

/// One run of `receive`: what it has delivered, the timers that may end it,
/// and a cable session's answers; `handle` takes the supervisor's events one
/// by one, `finish` turns how it ended into the exit status.
/// (`CableReceiveSession` is the cable transfer's part of it.)
/// The command's task only.
final class ReceiveSession {
    private let command: ReceiveCommand
    /// Ends the run (the supervisor's stop: from any thread, any time).
    private let stop: @Sendable () -> Void
    private let printer: MessageOutput
    private var transfer: CableReceiveSession
    private let answers = CableAnswerQueue()
    /// --duration's end.
    private var timer: Task<Void, Never>?
    /// Plays `answers` on the node's `out` (one per node).
    private var answering: Task<Void, Never>?
    /// A finished session's wait for the sender's closing word.
    private var linger: Task<Void, Never>?
    /// With -o, ends the wait for a transfer left incomplete (a sender that died, a last segment lost).
    private var idle: Task<Void, Never>?
    private var delivered = 0
    /// --count (or -o's one file) reached: what arrives while the node stops is not taken.
    private var done = false
    private var writeError: Error?
    private var sessionDelivered = false
    /// A session's file is delivered: stop once the sender says it has the digest, or after the linger.
    private var stopsAfterSession = false

    init(_ command: ReceiveCommand, stop: @escaping @Sendable () -> Void) {
        self.command = command
        self.stop = stop
        printer = MessageOutput(json: command.json)
        transfer = CableReceiveSession(json: command.json)
    }

    /// Cancels the timers and the answers' task (the run is over).
    func cancelTasks() { for task in [timer, answering, linger, idle] { task?.cancel() } }

    // MARK: - Events

    func handle(_ event: NodeSupervisor.Event) {
        switch event {
        case .opened(let node, let reconnected):
            opened(node, reconnected: reconnected)
        case .message(.cable(let reception, let seconds), _, let offset):
            take(reception, timeSeconds: seconds + offset)
        case .message(let message, _, let offset):
            guard let bytes = message.deliveredBytes else {
                printer.print(message, timeOffsetSeconds: offset)
                break
            }
            deliver(bytes, line: command.json ? MessageFormatter.json(message, timeOffsetSeconds: offset)
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

    /// A node is up (again): says what it listens for, starts the answers (cable) and --duration's timer.
    private func opened(_ node: Node, reconnected: Bool) {
        let profiles = (command.profile.map { [$0] } ?? ModemProfile.allCases.filter {
            $0.parameters.problem(sampleRateHz: node.sampleRateHz) == nil
        }.map { .tones($0) }).map(\.rawValue)
        Console.err((reconnected ? "reconnected: " : "") + "client '\(node.client.name)' at "
                    + "\(node.client.sampleRateHz) Hz, \(node.client.bufferFrames) frames/period; "
                    + "listening on \(node.inputPortName) for \(profiles.joined(separator: ", "))")
        if !reconnected { command.jack.renameWarnings(actualName: node.client.name).forEach { Console.err($0) } }
        if command.profile == .cable {
            answering?.cancel()
            let playback = node.playback
            let answers = answers
            answering = Task { await answers.play(on: playback) }
        }
        if timer == nil, let duration = command.duration {
            timer = after(seconds: duration)
        }
    }

    /// A cable reception: the transfer takes it, its answers are queued, a delivered file is delivered.
    private func take(_ reception: CableReception, timeSeconds: Double) {
        guard !done else { return }
        let outcome = transfer.take(reception, timeSeconds: timeSeconds)
        outcome.answers.forEach(answers.send)
        idle?.cancel()
        idle = nil
        if command.output != nil, transfer.isPending {
            idle = after(seconds: CableTransferOutput.idleSeconds)
        }
        if let delivery = outcome.delivery {
            deliver(delivery.bytes, line: delivery.line, summary: delivery.summary, inSession: outcome.inSession)
        }
        guard outcome.inSession, stopsAfterSession else { return }
        linger?.cancel()
        if outcome.closed {
            stop()
        } else {
            linger = after(seconds: ReceiveCommand.sessionLingerSeconds)
        }
    }

    /// Prints the message, or writes its bytes to --output; stops after --count (or one, with --output)
    /// (a session's: once the session is over).
    private func deliver(_ bytes: [UInt8], line: String, summary: String?, inSession: Bool = false) {
        if let output = command.output {
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
        if let count = command.count ?? (command.output == nil ? nil : 1), delivered >= count {
            // A session's end is the sender's closing word (or the linger): what comes until then is answered.
            if inSession {
                stopsAfterSession = true
            } else {
                done = true
                stop()
            }
        }
    }

    /// A task that stops the run after `seconds`, unless cancelled first.
    private func after(seconds: Double) -> Task<Void, Never> {
        let stop = stop
        return Task {
            try? await Task.sleep(for: .seconds(seconds))
            if !Task.isCancelled { stop() }
        }
    }

    // MARK: - End

    /// Throws for the exit status the run ended with (after the supervisor's `run` returned `outcome`).
    func finish(_ outcome: NodeSupervisor.Outcome) throws {
        if let writeError { throw writeError }
        if command.profile == .cable, !done,
           let line = transfer.endLine(delivered: delivered, signalled: SignalWatcher.isStopRequested) {
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
