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
    @OptionGroup(title: "Pitch") var pitch: ModeOptions
    @OptionGroup(title: "Pitch") var tuning: TuningOptions

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
        pitch.apply(to: &settings, band: analysis.band, tuning: tuning)
        let supervisor = NodeSupervisor(settings: settings, reconnect: !noReconnect)
        // Watch signals before the first open, so one during start-up is a clean stop too.
        let signals = SignalWatcher(onSignal: supervisor.stopRequester)
        defer { signals.cancel() }
        ControlReader.start(apply: supervisor.controller)
        let output = NodeOutput(json: analysis.json, durationSeconds: duration, stop: supervisor.stopRequester)
        let outcome = try await supervisor.run(output.handle)
        if outcome == .serverGone { throw ExitCode.failure }
    }
}

/// Prints what a supervised node reports: reports on stdout, the rest on stderr.
struct NodeOutput {
    let json: Bool
    let durationSeconds: Double?
    let stop: @Sendable () -> Void

    func handle(_ event: NodeSupervisor.Event) {
        switch event {
        case .opened(let node, let reconnected):
            Console.err((reconnected ? "reconnected: " : "")
                        + "client '\(node.client.name)' at \(node.client.sampleRateHz) Hz, "
                        + "\(node.client.bufferFrames) frames/period; "
                        + "ports \(node.inputPortName) (in), \(node.outputPortName) (out)")
        case .report(let report):
            Console.out(json ? ReportFormatter.json(report) : ReportFormatter.human(report))
            if let durationSeconds, report.timeSeconds >= durationSeconds { stop() }
        case .trouble(let xruns, let overflows, let dropped):
            Console.err("\(xruns) xrun(s); \(overflows) input ring overflow(s), \(dropped) frames not analysed")
        case .serverGone(let retrying):
            Console.err("the JACK server shut the client down" + (retrying ? "; waiting for it to come back" : ""))
        case .connectionsPending(let connections):
            Console.err("not yet restored (retrying): " + connections.map(\.description).joined(separator: ", "))
        case .connectionsRestored(let connections):
            Console.err("restored: " + connections.map(\.description).joined(separator: ", "))
        }
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
