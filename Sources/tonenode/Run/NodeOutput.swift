import Foundation
import ToneCommandLine
import ToneDSP
import ToneEngine
import ToneJack
import ToneFileCommands

/// Prints what a supervised node reports: reports on stdout, the rest on stderr.
struct NodeOutput {
    let json: Bool
    /// `--tones` above 1: every tone of a report, not only the strongest.
    var listTones = false
    let durationSeconds: Double?
    let channels: Int
    let stop: @Sendable () -> Void
    /// On a terminal: the view redrawn in place instead of one line per report.
    let liveView: LiveViewRenderer?
    /// `--send`: played once after the first start.
    var send: MessageToSend?
    /// `--receive-profile cable`: segments assembled into files.
    let cableTransfers: CableTransfers
    /// Lines to print when JACK gave the client another name than asked for.
    var renameWarnings: (String) -> [String] = { _ in [] }

    func handle(_ event: NodeSupervisor.Event) {
        switch event {
        case .opened(let node, let reconnected):
            diagnostic((reconnected ? "reconnected: " : "")
                        + "client '\(node.client.name)' at \(node.client.sampleRateHz) Hz, "
                        + "\(node.client.bufferFrames) frames/period; "
                        + "ports \(node.inputPortNames.joined(separator: ", ")) (in), "
                        + "\(node.outputPortNames.joined(separator: ", ")) (out), \(node.midiInputPortName) (MIDI)")
            if !reconnected { renameWarnings(node.client.name).forEach(diagnostic) }
            liveView?.update(force: true) {
                $0.clientName = node.client.name
                $0.sampleRateHz = node.client.sampleRateHz
                $0.periodFrames = node.client.bufferFrames
            }
            liveView?.dspLoadPercent = { [client = node.client] in client.dspLoadPercent }
            if let send, !reconnected { start(send, on: node) }
        case .message(.cable(let reception, let seconds), let channel, let offset):
            guard let line = cableTransfers.take(reception, channel: channel, timeSeconds: seconds + offset) else { break }
            if let liveView { liveView.printAbove { Console.out(line) } } else { Console.out(line) }
        case .message(let message, let channel, let offset):
            let line = ReportLineSink.line(message, channel: channel, timeOffsetSeconds: offset, json: json, channels: channels)
            if let liveView { liveView.printAbove { Console.out(line) } } else { Console.out(line) }
        case .report(let report):
            if let liveView {
                // The view follows the first channel.
                if report.channel == 0 { liveView.update { $0.report = report } }
            } else {
                Console.out(ReportLineSink.line(report, json: json, channels: channels, listTones: listTones))
            }
            if let durationSeconds, report.timeSeconds >= durationSeconds { stop() }
        case .trouble(let xruns, let overflows, let dropped):
            if let liveView {
                // The view shows the counts; no scrolling line per xrun.
                liveView.update(force: true) {
                    $0.xruns = xruns
                    $0.overflows = overflows
                }
                return
            }
            diagnostic("\(xruns) xrun(s); \(overflows) input ring overflow(s), \(dropped) frames not analysed")
        case .periodChanged(let frames):
            liveView?.update(force: true) { $0.periodFrames = frames }
            diagnostic(Self.periodChangedLine(frames))
            if json && liveView == nil { Console.out(Self.periodChangedJSON(frames)) }
        case .callbackProfile(let profile):
            diagnostic(profile.summary)
        case .sampleRateChanged(let from, let to):
            liveView?.update(force: true) { $0.sampleRateHz = to }
            diagnostic(ServerNotice.sampleRateChangedLine(fromHz: from, toHz: to))
            if json && liveView == nil { Console.out(ServerNotice.sampleRateChangedJSON(toHz: to)) }
        case .serverGone(let retrying):
            diagnostic(ServerNotice.goneLine(retrying: retrying))
        case .connectionsPending(let connections):
            diagnostic("not yet restored (retrying): " + connections.map(\.description).joined(separator: ", "))
        case .connectionsRestored(let connections):
            diagnostic("restored: " + connections.map(\.description).joined(separator: ", "))
        }
    }

    /// What a node says when the server's period changes under it (stderr).
    static func periodChangedLine(_ frames: Int) -> String {
        "period changed to \(frames) frames (readings across the change withheld)"
    }

    /// The same as a JSON event among the reports (`--json`).
    static func periodChangedJSON(_ frames: Int) -> String {
        var line = JSONLine()
        line.add("event", "period_changed")
        line.add("period_frames", frames)
        return line.description
    }

    /// Renders `message` at the node's rate and plays it on a task of its own.
    private func start(_ message: MessageToSend, on node: Node) {
        let playback = node.playback
        let samples: [Float]
        do {
            samples = try Transmission.render(message.bytes, profile: message.profile, sampleRateHz: playback.sampleRateHz,
                                              levelDBFS: message.levelDBFS)
        } catch {
            return diagnostic("error: --send: \(error)")
        }
        let done = String(format: "sent %d bytes, profile %@, %.3f s", message.bytes.count, message.profile.rawValue,
                          Double(samples.count) / playback.sampleRateHz)
        Task.detached { [liveView] in
            let line = await playback.play(samples) ? done : "error: --send: the message did not go out completely"
            guard let liveView else { return Console.err(line) }
            liveView.printAbove { Console.err(line) }
        }
    }

    /// One line on stderr; with a live view, above it.
    private func diagnostic(_ line: String) {
        guard let liveView else { return Console.err(line) }
        liveView.printAbove { Console.err(line) }
    }
}
