import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import ToneDSP
import ToneCore
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
            saved in the session (tone, level, mute, analysis options, channels) \
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

    @Flag(help: "One line per report even on a terminal (default there: a live view updating in place).")
    var plain = false

    @Option(help: ArgumentHelp("Stop after this many seconds of audio (default: run until stopped).",
                               valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp(
        "Audio channels: 1 gives ports `in`/`out`; 2 or more give `in_1`, `in_2`…, `out_1`, `out_2`… (every output plays the tone, every input is analysed and reported on its own).",
        valueName: "n"))
    var channels = 1

    func validate() throws {
        try NodeSettings.validate([.channels]) { $0.channels = channels }
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
        control.apply(to: &settings)
        pitch.apply(to: &settings, band: analysis.band, tuning: tuning)
        settings.channels = channels
        settings.receivesMessages = messages.receive
        // Under a session manager: its client id names us, its file holds our settings.
        // Watch signals from the start, so one while joining a session or
        // opening the first client is a clean stop too.
        let stop = StopRelay()
        let signals = SignalWatcher(onSignal: stop.request)
        defer { signals.cancel() }
        let nsm = try NSMJoin.join(settings: &settings, stopped: { stop.isRequested })
        defer { nsm?.client.stop() }
        if nsm == nil && stop.isRequested { return }
        var osc: OSCServer?
        if let port = control.oscPort {
            do throws(OSCServer.StartError) {
                osc = try OSCServer(host: control.oscHost, port: port)
            } catch {
                Console.err("error: " + error.description)
                throw ExitCode.failure
            }
        }
        defer { osc?.stop() }
        let supervisor = NodeSupervisor(settings: settings, reconnect: !noReconnect)
        stop.attach(supervisor.stopRequester)
        ControlReader.start(apply: supervisor.controller)
        if let nsm {
            nsm.client.start(session: nsm.session, saved: nsm.saved, settings: supervisor.settingsReader) { Console.err($0) }
        }
        if let osc {
            osc.start(apply: supervisor.controller) { Console.err("error: " + $0) }
            Console.err("OSC: listening on \(osc.address) (/tonenode/freq, level, mute, beep, sweep)")
        }
        let live = !analysis.json && !plain && isatty(STDOUT_FILENO) != 0
        let output = NodeOutput(json: analysis.json, listTones: analysis.listsTones, durationSeconds: duration,
                                channels: settings.channels, stop: supervisor.stopRequester,
                                liveView: live ? LiveViewRenderer() : nil,
                                send: messages.send.map { MessageToSend(bytes: Array($0.utf8), profile: messages.sendProfile,
                                                                        levelDBFS: messages.sendLevel) })
        output.liveView?.update { $0.tuning = EqualTemperament(a4Hz: settings.a4Hz) }
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
    let channels: Int
    let stop: @Sendable () -> Void
    /// On a terminal: the view redrawn in place instead of one line per report.
    let liveView: LiveViewRenderer?
    /// `--send`: played once after the first start.
    var send: MessageToSend?

    func handle(_ event: NodeSupervisor.Event) {
        switch event {
        case .opened(let node, let reconnected):
            diagnostic((reconnected ? "reconnected: " : "")
                        + "client '\(node.client.name)' at \(node.client.sampleRateHz) Hz, "
                        + "\(node.client.bufferFrames) frames/period; "
                        + "ports \(node.inputPortNames.joined(separator: ", ")) (in), "
                        + "\(node.outputPortNames.joined(separator: ", ")) (out), \(node.midiInputPortName) (MIDI)")
            liveView?.update(force: true) {
                $0.clientName = node.client.name
                $0.sampleRateHz = node.client.sampleRateHz
                $0.periodFrames = node.client.bufferFrames
            }
            liveView?.dspLoadPercent = { [client = node.client] in client.dspLoadPercent }
            if let send, !reconnected { start(send, on: node) }
        case .message(let message, let channel, let offset):
            let line = json ? MessageFormatter.json(message, timeOffsetSeconds: offset)
                            : MessageFormatter.human(message, timeOffsetSeconds: offset)
            // With several channels, say which input heard it (as the reports do).
            let tagged = channels <= 1 ? line
                : json ? "{\"channel\":\(channel + 1)," + line.dropFirst() : "[in_\(channel + 1)] " + line
            if let liveView { liveView.printAbove { Console.out(tagged) } } else { Console.out(tagged) }
        case .report(let report):
            // Reports carry their channel (from 1) only when there is more than one.
            let channel = channels > 1 ? report.channel + 1 : nil
            if let liveView {
                // The view follows the first channel.
                if report.channel == 0 { liveView.update { $0.report = report } }
            } else {
                Console.out(json ? ReportFormatter.json(report, channel: channel, listTones: listTones)
                                 : ReportFormatter.human(report, channel: channel, listTones: listTones))
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

    /// Renders `message` at the node's rate and plays it on a task of its own.
    private func start(_ message: MessageToSend, on node: Node) {
        let engine = node.engine
        let samples: [Float]
        do {
            samples = try Transmission.render(message.bytes, profile: message.profile, sampleRateHz: engine.sampleRateHz,
                                              levelDBFS: message.levelDBFS)
        } catch {
            return diagnostic("error: --send: \(error)")
        }
        let done = String(format: "sent %d bytes, profile %@, %.3f s", message.bytes.count, message.profile.rawValue,
                          Double(samples.count) / engine.sampleRateHz)
        Task.detached {
            let complete = await engine.play(samples)
            Console.err(complete ? done : "error: --send: the message did not go out completely")
        }
    }

    /// One line on stderr; with a live view, above it.
    private func diagnostic(_ line: String) {
        guard let liveView else { return Console.err(line) }
        liveView.printAbove { Console.err(line) }
    }
}

/// Reads control commands from stdin, one per line, on a thread of its own,
/// for as long as stdin is open: script lines when stdin is a pipe or file,
/// at a `tonenode> ` prompt (on stderr) when it is a terminal. A bad line is
/// one error line on stderr; the node keeps running with its previous settings.
enum ControlReader {
    static func start(apply: @escaping @Sendable (ControlCommand) throws(ControlCommand.Problem) -> Void) {
        let interactive = isatty(STDIN_FILENO) == 1
        let thread = Thread {
            if interactive {
                Console.err("type freq HZ, level DBFS, mute on|off, beep HZ SECONDS or sweep START_HZ END_HZ SECONDS")
            }
            while true {
                if interactive { FileHandle.standardError.write(Data("tonenode> ".utf8)) }
                guard let line = readLine() else { break }
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

/// Joins the NSM session named by `NSM_URL`, if any, before JACK is opened.
enum NSMJoin {
    struct Joined {
        let client: NSMClient
        let session: NSMClient.Session
        let saved: SessionSettings
    }

    /// nil without `NSM_URL`, or when the server refuses or does not answer
    /// (one line on stderr; the node runs without a session). A malformed
    /// `NSM_URL` or an unreadable session file is an error (status 1).
    static func join(settings: inout NodeSettings, stopped: @escaping () -> Bool) throws -> Joined? {
        guard let url = ProcessInfo.processInfo.environment["NSM_URL"] else { return nil }
        let client: NSMClient
        do throws(OSCEndpoint.Failure) {
            client = try NSMClient(serverURL: url)
        } catch {
            Console.err("error: " + error.description)
            throw ExitCode.failure
        }
        let session: NSMClient.Session
        do throws(OSCEndpoint.Failure) {
            let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "tonenode").lastPathComponent
            guard let joined = try client.join(executable: executable, stopped: stopped) else { return nil }
            session = joined
        } catch {
            Console.err("NSM: \(error.description); running without a session")
            return nil
        }
        do throws(SessionFileError) {
            if let saved = try SessionSettings.load(sessionPath: session.path) {
                saved.apply(to: &settings)
            }
        } catch {
            client.replyError(to: "/nsm/client/open", code: .badProject, message: error.description)
            Console.err("error: NSM: " + error.description)
            throw ExitCode.failure
        }
        settings.clientName = session.clientID
        client.replyOK(to: "/nsm/client/open")
        Console.err("NSM: session '\(session.displayName)', client id '\(session.clientID)', settings in \(SessionSettings.fileURL(sessionPath: session.path).path)")
        return Joined(client: client, session: session, saved: SessionSettings(settings))
    }
}

/// A stop request (a signal) that may come before there is a node to stop:
/// remembered, and passed on once a target is attached.
final class StopRelay: Sendable {
    private let requested = Atomic<Bool>(false)
    private let target = Mutex<(@Sendable () -> Void)?>(nil)

    var isRequested: Bool { requested.load(ordering: .acquiring) }

    @Sendable func request() {
        requested.store(true, ordering: .releasing)
        target.withLock { $0?() }
    }

    func attach(_ stop: @escaping @Sendable () -> Void) {
        target.withLock { $0 = stop }
        if isRequested { stop() }
    }
}

/// A message `run --send` plays once.
struct MessageToSend: Sendable {
    let bytes: [UInt8]
    let profile: ModemProfile
    let levelDBFS: Double
}
