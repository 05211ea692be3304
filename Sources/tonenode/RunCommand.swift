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
            overflows) go to stderr. Exit status: 0 after Ctrl-C/SIGTERM or \
            --duration, 1 on an error or when the server goes away.
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions
    @OptionGroup(title: "Tone") var tone: ToneOptions
    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions

    @Option(help: ArgumentHelp("Stop after this many seconds of audio (default: run until stopped).",
                               valueName: "seconds"))
    var duration: Double?

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds")
        }
    }

    func run() async throws {
        var settings = NodeSettings()
        jack.apply(to: &settings)
        tone.apply(to: &settings)
        analysis.apply(to: &settings)
        let node = try Node(settings: settings)
        defer { node.stop() }
        Console.err("client '\(node.client.name)' at \(node.client.sampleRateHz) Hz, \(node.client.bufferFrames) frames/period; "
                    + "ports \(node.inputPortName) (in), \(node.outputPortName) (out)")
        let signals = SignalWatcher(onSignal: node.stopRequester)
        defer { signals.cancel() }
        let serverGone = try await NodeOutput.print(node.events, json: analysis.json, until: duration,
                                                    stop: node.stopRequester)
        if serverGone { throw ExitCode.failure }
    }
}

/// Prints a node's events until the stream ends.
enum NodeOutput {
    /// - Returns: true when the stream ended because the server went away.
    static func print(_ events: AsyncStream<NodeEvent>, json: Bool, until durationSeconds: Double?,
                      stop: @Sendable () -> Void) async throws -> Bool {
        for await event in events {
            switch event {
            case .report(let report):
                Console.out(json ? ReportFormatter.json(report) : ReportFormatter.human(report))
                if let durationSeconds, report.timeSeconds >= durationSeconds { stop() }
            case .trouble(let xruns, let overflows, let dropped):
                Console.err("\(xruns) xrun(s); \(overflows) input ring overflow(s), \(dropped) frames not analysed")
            case .serverGone:
                Console.err("the JACK server shut the client down")
                return true
            }
        }
        return false
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
