import ArgumentParser
import Foundation
import ToneCommandLine
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack
import ToneOSC

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a tone on `out` and report the tone heard on `in`, until Ctrl-C.",
        discussion: """
            Plays a sine on `out`, reports what it hears on `in` (stdout, one report \
            per hop; diagnostics on stderr); played live by lines on stdin, OSC \
            (--osc-port) or MIDI on `midi_in`. Never starts a server; waits for one that goes away.
            Exit status: 0 after Ctrl-C/SIGTERM/SIGHUP or --duration, 1 on an error, 64 on a bad option.
            Full guide: run.md and control.md (docs/ in the source, /usr/share/doc/tonenode/ from the .deb).
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions
    @OptionGroup(title: "Tone") var tone: ToneOptions
    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Control (MIDI, OSC)") var control: ControlOptions
    @OptionGroup(title: "Pitch") var pitch: ModeOptions
    @OptionGroup(title: "Tuning") var tuning: TuningOptions
    @OptionGroup(title: "Messages as tones") var messages: MessageRunOptions
    @OptionGroup(title: "Live page") var web: WebOptions

    @Flag(Parameters.loopback)
    var loopback: Bool

    @Flag(help: "One line per report even on a terminal (default there: a live view updating in place).")
    var plain = false

    @Option(name: Parameters.duration.optionName, parsing: .unconditional, help: Parameters.duration.argumentHelp)
    var duration: Double?

    @Option(Parameters.channels, parsing: .unconditional)
    var channels: Int

    func validate() throws {
        try NodeSettings.validate([.channels]) { $0.channels = channels }
        if let duration, !Parameters.duration.accepts(duration) {
            throw ValidationError("\(Parameters.duration.commandLineName) must be a positive number of seconds")
        }
        // The cable plan fills 200 Hz–20 kHz at a float path's SNR: even a tone at −40 dBFS beside it breaks every frame.
        if messages.send != nil, messages.sendProfile == .cable, !tone.mute {
            throw ValidationError("--send-profile cable needs --mute: the cable transmission fills the whole band, "
                                  + "and a tone beside it breaks every frame")
        }
    }

    @Flag(help: "Time the JACK process callback (entry to exit, on the JACK thread) and print its mean, 99th percentile and worst case against the period on stderr every 10 s and at the end (default: off, no cost).")
    var profileCallback = false

    @OptionGroup var reconnect: ReconnectOption

    /// How long after `--duration` by the wall clock a run whose audio stopped is ended.
    static let durationGraceSeconds = 1.0

    func run() async throws {
        var settings = nodeSettings()
        // Under a session manager: its client id names us, its file holds our settings.
        // Watch signals from the start, so one while joining a session or
        // opening the first client is a clean stop too.
        SignalWatcher.endsOnSignal()
        let nsm = try NSMJoin.join(settings: &settings, stopped: { SignalWatcher.isStopRequested })
        defer { nsm?.client.stop() }
        if nsm == nil && SignalWatcher.isStopRequested { return }
        let osc = try openOSC()
        defer { osc?.stop() }
        let supervisor = NodeSupervisor(settings: settings, reconnect: reconnect.reconnects,
                                        profilesCallback: profileCallback)
        SignalWatcher.endsOnSignal(supervisor.stopRequester)
        // Nothing goes to stdout before this: the reports come from the supervisor.
        Console.onOutputFailure(supervisor.stopRequester)
        let live = !analysis.json && !plain && isatty(STDOUT_FILENO) != 0
        // With a live view and a person at the keyboard, the prompt lives below the view.
        let liveView = live ? LiveViewRenderer(prompt: isatty(STDIN_FILENO) == 1 ? ControlReader.prompt : nil) : nil
        startControls(supervisor, liveView: liveView, nsm: nsm, osc: osc)
        let cableTransfers = CableTransfers(json: analysis.json) { line in
            guard let liveView else { return Console.err(line) }
            liveView.printAbove { Console.err(line) }
        }
        let output = nodeOutput(settings, supervisor: supervisor, liveView: liveView, cableTransfers: cableTransfers)
        // The live page: fed as the sink is, controlled through the same door as stdin and OSC.
        let page = try await NodeWeb.start(web, supervisor: supervisor, channels: settings.channels)
        let pageStatus = page?.statusTask()
        defer { pageStatus?.cancel() }
        defer {
            output.liveView?.finish()
            LineEditor.restore()
        }
        // Without a live view the worker formats and writes the reports itself
        // (one wake a hop, never blocked by the reader); the view keeps the events.
        let sink = live ? nil : ReportLineSink(json: analysis.json, listTones: analysis.listsTones, channels: settings.channels,
                                               durationSeconds: duration, cableTransfers: cableTransfers,
                                               stop: supervisor.stopRequester)
        supervisor.reportSink = sink.map { sink -> any ReportSink in
            page.map { WebReportSink(inner: sink, hub: $0.hub, channels: settings.channels) } ?? sink
        }
        let outcome: NodeSupervisor.Outcome
        do {
            outcome = try await runNode(supervisor, sink: sink) { event in
                output.handle(event)
                page?.handle(event)
            }
        } catch {
            await page?.server.stop()
            sink?.writer.finish(waitingAtMostSeconds: 0.5)
            throw error
        }
        await page?.server.stop()
        // A slow reader gets the rest; one that reads nothing costs at most this.
        sink?.writer.finish(waitingAtMostSeconds: 0.5)
        sayWhatWasLost(droppedLines: sink?.writer.droppedLines ?? 0, cableTransfers: cableTransfers)
        if outcome == .serverGone { throw ExitCode.failure }
    }

    // MARK: - The steps

    /// The node the options describe.
    private func nodeSettings() -> NodeSettings {
        var settings = NodeSettings()
        jack.apply(to: &settings)
        tone.apply(to: &settings)
        analysis.apply(to: &settings)
        control.apply(to: &settings)
        pitch.apply(to: &settings, band: analysis.band, tuning: tuning)
        settings.channels = channels
        settings.loopback = loopback
        if messages.receives { settings.receiveMessages(only: messages.receiveProfile) }
        return settings
    }

    /// The OSC socket of --osc-port (nil without it); one that cannot open is the command's error.
    private func openOSC() throws -> OSCServer? {
        guard let port = control.oscPort else { return nil }
        do throws(OSCError) {
            return try OSCServer(host: control.oscHost, port: port)
        } catch {
            Console.err("error: " + error.description)
            throw ExitCode.failure
        }
    }

    /// stdin, the session manager and OSC, each applying its commands through the supervisor's controller.
    private func startControls(_ supervisor: NodeSupervisor, liveView: LiveViewRenderer?, nsm: NSMJoin.Joined?, osc: OSCServer?) {
        ControlReader.start(liveView: liveView, apply: supervisor.controller)
        if let nsm {
            nsm.client.start(session: nsm.session, saved: nsm.saved, settings: supervisor.settingsReader) { Console.err($0) }
        }
        if let osc {
            osc.start(apply: supervisor.controller) { Console.err("error: " + $0) }
            let commands = ControlCommand.usage.map(\.name)
            Console.err("OSC: listening on \(osc.address) (\(ControlCommand.oscPrefix)\(commands.joined(separator: ", ")))")
        }
    }

    /// What prints the supervisor's events: readings in the live view, notices, --send's message.
    private func nodeOutput(_ settings: NodeSettings, supervisor: NodeSupervisor, liveView: LiveViewRenderer?,
                            cableTransfers: CableTransfers) -> NodeOutput {
        var output = NodeOutput(json: analysis.json, listTones: analysis.listsTones, durationSeconds: duration,
                                channels: settings.channels, stop: supervisor.stopRequester,
                                liveView: liveView,
                                send: messages.send.map { MessageToSend(bytes: Array($0.utf8), profile: messages.sendProfile,
                                                                        levelDBFS: messages.sendLevel) },
                                cableTransfers: cableTransfers)
        output.renameWarnings = { [jack, control] in jack.renameWarnings(actualName: $0, connectMidi: control.connectMidi) }
        output.liveView?.update { $0.tuning = EqualTemperament(a4Hz: settings.a4Hz) }
        return output
    }

    /// Runs the node until it stops, handing each event to `handle`.
    ///
    /// --duration counts the audio (the report at N s is the last); with
    /// no audio (the server gone, PipeWire not scheduling the client) the
    /// wall clock ends the run, a grace after N s since the first open.
    private func runNode(_ supervisor: NodeSupervisor, sink: ReportLineSink?,
                         handle: (NodeSupervisor.Event) -> Void) async throws -> NodeSupervisor.Outcome {
        var wallClock: Task<Void, Never>?
        defer { wallClock?.cancel() }
        return try await supervisor.run { event in
            if wallClock == nil, case .opened = event, let duration {
                wallClock = Task { [stop = supervisor.stopRequester] in
                    try? await Task.sleep(for: .seconds(duration + Self.durationGraceSeconds))
                    if !Task.isCancelled { stop() }
                }
            }
            // The worker has stopped: what a regular file holds back goes out now, not after the outage.
            if case .serverGone = event { sink?.writer.flush(now: true) }
            handle(event)
        }
    }

    /// One line on stderr for each kind of thing lost on the way: reports, readings, MIDI, cable transfers.
    private func sayWhatWasLost(droppedLines: Int, cableTransfers: CableTransfers) {
        let dropped = Node.droppedEvents + droppedLines
        if dropped > 0 { Console.err("\(dropped) report(s) dropped: stdout was not read in time") }
        if Node.withheldReadings > 0 {
            Console.err("\(Node.withheldReadings) reading(s) withheld: their windows spanned an xrun or a period change")
        }
        if Node.droppedMidiMessages > 0 {
            Console.err("\(Node.droppedMidiMessages) MIDI message(s) dropped: a period brought more than "
                        + "\(Node.midiMessagesPerPeriod)")
        }
        cableTransfers.incompleteLines.forEach { Console.err($0) }
    }
}
