import ArgumentParser
import Dispatch
import Foundation
import ToneDSP
import ToneJack

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a tone on `out` and report the tone heard on `in`, until Ctrl-C.",
        discussion: """
            Opens a JACK client with audio ports `in` and `out` (never starts a \
            server; connects only what --connect-in/--connect-out name). Reports go \
            to stdout, one per hop; diagnostics (client name, ports, xruns, ring \
            overflows) go to stderr. When the server goes away, it waits for it \
            to come back (checking every 2 s), reopens with the same settings at \
            the server's new rate and period, and restores its connections. \
            Exit status: 0 after SIGINT/SIGTERM/SIGHUP or --duration, 1 on an \
            error (or when the server goes away with --no-reconnect).
            Control it by writing lines to its stdin: `freq HZ`, `level DBFS`, \
            `mute on|off` (changes glide without clicks; a bad line is reported \
            on stderr and ignored).
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions
    @OptionGroup(title: "Tone") var tone: ToneOptions
    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Tuning") var tuning: TuningOptions

    @Flag(help: "One line per report even on a terminal (default there: a live view updating in place).")
    var plain = false

    @Option(help: ArgumentHelp("Stop after this many seconds of audio (default: run until stopped).",
                               valueName: "seconds"))
    var duration: Double?

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds")
        }
    }

    @Flag(help: "Exit (status 1) when the JACK server goes away, instead of waiting for it to come back.")
    var noReconnect = false

    func run() async throws {
        var settings = NodeSettings()
        jack.apply(to: &settings)
        tone.apply(to: &settings)
        analysis.apply(to: &settings)
        let supervisor = NodeSupervisor(settings: settings, reconnect: !noReconnect)
        // Watch signals before the first open, so one during start-up is a clean stop too.
        let signals = SignalWatcher(onSignal: supervisor.stopRequester)
        defer { signals.cancel() }
        ControlReader.start(apply: supervisor.controller)
        let live = !analysis.json && !plain && isatty(STDOUT_FILENO) != 0
        let output = NodeOutput(json: analysis.json, listTones: analysis.listsTones, durationSeconds: duration,
                                stop: supervisor.stopRequester, liveView: live ? LiveViewRenderer() : nil)
        output.liveView?.update { $0.tuning = tuning.temperament }
        defer { output.liveView?.finish() }
        let outcome = try await supervisor.run(output.handle)
        if outcome == .serverGone { throw ExitCode.failure }
    }
}

/// Prints what a supervised node reports: reports on stdout, the rest on stderr.
struct NodeOutput {
    let json: Bool
    /// `--tones` above 1: every tone of a report, not only the strongest.
    var listTones = false
    let durationSeconds: Double?
    let stop: @Sendable () -> Void
    /// On a terminal: the view redrawn in place instead of one line per report.
    let liveView: LiveViewRenderer?

    func handle(_ event: NodeSupervisor.Event) {
        switch event {
        case .opened(let node, let reconnected):
            diagnostic((reconnected ? "reconnected: " : "")
                        + "client '\(node.client.name)' at \(node.client.sampleRateHz) Hz, "
                        + "\(node.client.bufferFrames) frames/period; "
                        + "ports \(node.inputPortName) (in), \(node.outputPortName) (out)")
            liveView?.update(force: true) {
                $0.clientName = node.client.name
                $0.sampleRateHz = node.client.sampleRateHz
                $0.periodFrames = node.client.bufferFrames
            }
            liveView?.dspLoadPercent = { [client = node.client] in client.dspLoadPercent }
        case .report(let report):
            if let liveView {
                liveView.update { $0.report = report }
            } else {
                Console.out(json ? ReportFormatter.json(report, listTones: listTones)
                                 : ReportFormatter.human(report, listTones: listTones))
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
        case .serverGone(let retrying):
            diagnostic("the JACK server shut the client down" + (retrying ? "; waiting for it to come back" : ""))
        case .connectionsPending(let connections):
            diagnostic("not yet restored (retrying): " + connections.map(\.description).joined(separator: ", "))
        case .connectionsRestored(let connections):
            diagnostic("restored: " + connections.map(\.description).joined(separator: ", "))
        }
    }

    /// One line on stderr; with a live view, above it.
    private func diagnostic(_ line: String) {
        guard let liveView else { return Console.err(line) }
        liveView.printAbove { Console.err(line) }
    }
}

/// Reads control commands from stdin, one per line, on a thread of its own,
/// for as long as stdin is open. A bad line is one error line on stderr; the
/// node keeps running with its previous settings.
enum ControlReader {
    static func start(apply: @escaping @Sendable (ControlCommand) throws(ControlCommand.Problem) -> Void) {
        let thread = Thread {
            while let line = readLine() {
                do throws(ControlCommand.Problem) {
                    if let command = try ControlCommand.parse(line) { try apply(command) }
                } catch {
                    Console.err("error: " + error.description)
                }
            }
        }
        thread.name = "tonenode-control"
        thread.start()
    }
}

/// SIGINT/SIGTERM/SIGHUP → a stop request (the flag); the main task then closes the client.
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    init(onSignal: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "tonenode.signals")
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: onSignal)
            source.resume()
            return source
        }
    }

    func cancel() { sources.forEach { $0.cancel() } }
}
