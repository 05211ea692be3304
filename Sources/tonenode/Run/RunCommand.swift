import ArgumentParser
import Foundation
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
            Opens a JACK client with audio ports `in` and `out` (never starts a \
            server; connects only what --connect-in/--connect-out name). Reports go \
            to stdout, one per hop; diagnostics (client name, ports, xruns, ring \
            overflows) go to stderr. When the server goes away, it waits for it \
            to come back (checking every 2 s), reopens with the same settings at \
            the server's new rate and period, and restores its connections. \
            Exit status: 0 after SIGINT/SIGTERM/SIGHUP or --duration, 1 on an \
            error (or when the server goes away with --no-reconnect).
            Control it by writing lines to its stdin (a script, or typed at a \
            prompt on a terminal): `freq HZ`, `level DBFS`, `mute on|off`, \
            `beep HZ SECONDS`, `sweep START_HZ END_HZ SECONDS`; the same over \
            OSC with --osc-port (`/tonenode/freq f` …). Changes glide without \
            clicks; beeps and sweeps have raised-cosine edges and crossfade with \
            the tone. A bad line or message is one line on stderr and is ignored. \
            Under a session manager (NSM_URL set, NSM API 1.2) it announces \
            itself, takes the client id as its JACK name, restores the settings \
            saved in the session (tone, level, mute, analysis options, mode and \
            pitch range, tuning, bend range, channels, --receive) \
            and saves them on request; a malformed NSM_URL is an error (status 1), \
            an NSM server that refuses or does not answer within 5 s is one line \
            on stderr and the node runs without a session.
            MIDI on port `midi_in`: note-on plays the note (equal temperament \
            around --a4), velocity scales --level, note-off releases, pitch bend \
            bends (--bend-range).
            Messages as tones: --send TEXT plays the message once, right after \
            the first start, on top of the tone (--mute sends it alone); a line \
            on stderr says when it has gone out. --receive also decodes messages \
            arriving on `in` (every profile the rate allows) on the analysis \
            worker and prints each on stdout as `receive` does (a JSON object \
            with time_s, text, base64, profile, snr_db with --json), between the \
            reports.
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions
    @OptionGroup(title: "Tone") var tone: ToneOptions
    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Control (MIDI, OSC)") var control: ControlOptions
    @OptionGroup(title: "Pitch") var pitch: ModeOptions
    @OptionGroup(title: "Tuning") var tuning: TuningOptions
    @OptionGroup(title: "Messages as tones") var messages: MessageRunOptions

    @Flag(help: "Connect our own `out` to our own `in` (each channel's), whatever name JACK gave the client.")
    var loopback = false

    @Flag(help: "One line per report even on a terminal (default there: a live view updating in place).")
    var plain = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds of audio (default: run until stopped).",
                               valueName: "seconds"))
    var duration: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Audio channels: 1 gives ports `in`/`out`; 2 or more give `in_1`, `in_2`…, `out_1`, `out_2`… (every output plays the tone, every input is analysed and reported on its own).",
        valueName: "n"))
    var channels = 1

    func validate() throws {
        try NodeSettings.validate([.channels]) { $0.channels = channels }
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds")
        }
    }

    @Flag(help: "Time the JACK process callback (entry to exit, on the JACK thread) and print its mean, 99th percentile and worst case against the period on stderr every 10 s and at the end (default: off, no cost).")
    var profileCallback = false

    @Flag(help: "Exit (status 1) when the JACK server goes away, instead of waiting for it to come back.")
    var noReconnect = false

    func run() async throws {
        var settings = NodeSettings()
        jack.apply(to: &settings)
        tone.apply(to: &settings)
        analysis.apply(to: &settings)
        control.apply(to: &settings)
        pitch.apply(to: &settings, band: analysis.band, tuning: tuning)
        settings.channels = channels
        settings.loopback = loopback
        settings.receivesMessages = messages.receive
        // Under a session manager: its client id names us, its file holds our settings.
        // Watch signals from the start, so one while joining a session or
        // opening the first client is a clean stop too.
        let stop = StopRelay()
        let signals = SignalWatcher(onSignal: stop.request)
        defer { signals.cancel() }
        Console.onOutputFailure(stop.request)
        let nsm = try NSMJoin.join(settings: &settings, stopped: { stop.isRequested })
        defer { nsm?.client.stop() }
        if nsm == nil && stop.isRequested { return }
        var osc: OSCServer?
        if let port = control.oscPort {
            do throws(OSCError) {
                osc = try OSCServer(host: control.oscHost, port: port)
            } catch {
                Console.err("error: " + error.description)
                throw ExitCode.failure
            }
        }
        defer { osc?.stop() }
        let supervisor = NodeSupervisor(settings: settings, reconnect: !noReconnect,
                                        profilesCallback: profileCallback)
        stop.attach(supervisor.stopRequester)
        let live = !analysis.json && !plain && isatty(STDOUT_FILENO) != 0
        // With a live view and a person at the keyboard, the prompt lives below the view.
        let liveView = live ? LiveViewRenderer(prompt: isatty(STDIN_FILENO) == 1 ? ControlReader.prompt : nil) : nil
        ControlReader.start(liveView: liveView, apply: supervisor.controller)
        if let nsm {
            nsm.client.start(session: nsm.session, saved: nsm.saved, settings: supervisor.settingsReader) { Console.err($0) }
        }
        if let osc {
            osc.start(apply: supervisor.controller) { Console.err("error: " + $0) }
            Console.err("OSC: listening on \(osc.address) (/tonenode/freq, level, mute, beep, sweep)")
        }
        var output = NodeOutput(json: analysis.json, listTones: analysis.listsTones, durationSeconds: duration,
                                channels: settings.channels, stop: supervisor.stopRequester,
                                liveView: liveView,
                                send: messages.send.map { MessageToSend(bytes: Array($0.utf8), profile: messages.sendProfile,
                                                                        levelDBFS: messages.sendLevel) })
        output.renameWarnings = { [jack, control] in jack.renameWarnings(actualName: $0, connectMidi: control.connectMidi) }
        output.liveView?.update { $0.tuning = EqualTemperament(a4Hz: settings.a4Hz) }
        defer {
            output.liveView?.finish()
            LineEditor.restore()
        }
        let outcome = try await supervisor.run(output.handle)
        if Node.droppedEvents > 0 {
            Console.err("\(Node.droppedEvents) report(s) dropped: stdout was not read in time")
        }
        if outcome == .serverGone { throw ExitCode.failure }
    }
}
