import ArgumentParser
import Foundation
import ToneCommandLine
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

struct LinkCommand: ParsableCommand {
    private typealias Link = Parameters.Link

    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Measure a link between JACK servers (a network bridge): latency, jitter, dropouts, clock drift.",
        discussion: """
            Sends a marker through a link between JACK servers and reports latency, \
            jitter, dropouts and clock drift.
            Exit status: 0 within the limits given, 2 when a limit was broken, 1 on a runtime error, 64 on a bad option.
            Full guide: network.md (docs/ in the source, /usr/share/doc/tonenode/ from the .deb).
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions

    @Flag(help: "One way: only listen (no probe on `out`), report clock drift, level and dropouts.")
    var listen = false

    @Option(Link.level, parsing: .unconditional)
    var level: Double

    @Option(name: Link.duration.optionName, help: Link.duration.argumentHelp)
    var duration: Double?

    @Option(name: Link.maxLatencyMs.optionName, help: Link.maxLatencyMs.argumentHelp)
    var maxLatencyMs: Double?

    @Option(name: Link.maxJitterMs.optionName, help: Link.maxJitterMs.argumentHelp)
    var maxJitterMs: Double?

    @Option(name: Link.maxDropouts.optionName, help: Link.maxDropouts.argumentHelp)
    var maxDropouts: Int?

    @OptionGroup var reconnect: ReconnectOption

    @Flag(help: "One JSON object per reading and one summary object.")
    var json = false

    @Option(help: ArgumentHelp("Also write the latency (one way: the delay) over time, dropouts marked, as an SVG picture to this file.",
                               valueName: "file.svg"))
    var plot: String?

    var limits: LinkLimits { LinkLimits(maxLatencyMs: maxLatencyMs, maxJitterMs: maxJitterMs, maxDropouts: maxDropouts) }

    func validate() throws {
        if let problem = NodeSettings.levelProblem(level) { throw ValidationError(problem.description) }
        if let duration, !Link.duration.accepts(duration) {
            throw ValidationError("\(Link.duration.commandLineName) must be a positive number of seconds")
        }
        if let problem = limits.problem { throw ValidationError(problem.description) }
        if let plot { try PlotOption.validate(plot) }
    }

    func run() throws {
        Denormals.flushToZeroOnThisThread()
        var settings = LinkMeter.Settings()
        jack.place(&settings)
        settings.plays = !listen
        settings.levelDBFS = level
        SignalWatcher.endsOnSignal()
        let started = Date()
        let deadline = duration.map { started.addingTimeInterval($0) }
        let shouldStop = { SignalWatcher.isStopRequested || deadline.map { Date() >= $0 } ?? false }
        var output = LinkOutput(json: json, oneWay: listen)
        var failure: Error?
        while !shouldStop() {
            do {
                let session = try LinkMeter.measure(settings, opened: { client, probe, input, output in
                    Console.err("client '\(client.name)' at \(client.sampleRateHz) Hz, \(client.bufferFrames) frames/period; "
                                + "ports \(input) (in), \(output) (out); probe period \(probe.periodFrames) frames; "
                                + (listen ? "listening (the one-way delay it reads is relative: no fixed origin)…" : "measuring the round trip…"))
                }, onReading: { reading, analyzer, spansPeriodChange in
                    output.reading(reading, analyzer: analyzer, offsetSeconds: output.offsetSeconds,
                                   spansPeriodChange: spansPeriodChange)
                }, onPeriodChange: { from, to in
                    Console.err("period changed from \(from) to \(to) frames (the latency changes with it; "
                                + "a reading across the change is marked)")
                    if json { Console.out(NodeOutput.periodChangedJSON(to)) }
                }, shouldStop: shouldStop)
                output.finish(session)
                switch session.ending {
                case .serverGone:
                    Console.err(ServerNotice.goneLine(retrying: reconnect.reconnects))
                    // Said in that one line: the summary of what was read, then exit 1.
                    if !reconnect.reconnects { failure = ExitCode.failure; break }
                    while !shouldStop() && !JackClient.serverIsReachable(serverName: jack.server) { usleep(200_000) }
                    output.offsetSeconds = Date().timeIntervalSince(started)
                case .sampleRateChanged(let from, let to):
                    Console.err("the sample rate changed from \(from) to \(to) Hz; measuring again at the new rate")
                    output.offsetSeconds = Date().timeIntervalSince(started)
                case .stopped:
                    break
                }
                if failure != nil { break }
            } catch {
                if output.sessions.isEmpty || !reconnect.reconnects { throw error }
                usleep(500_000)
            }
        }
        let leftOut = output.sessions.count - output.pooledSessions.count
        if leftOut > 0 { Console.err("the summary leaves out the \(leftOut) session(s) before the sample rate changed") }
        let summary = output.summary(limits: limits)
        Console.out(summary.text)
        if let plot { try PlotOption.write(output.plotSVG(), to: plot) }
        if let failure { throw failure }
        if !summary.violations.isEmpty {
            for line in summary.violations { Console.err("limit broken: " + line) }
            throw ExitCode(2)
        }
    }
}
