import ArgumentParser
import Foundation
import ToneAudioFile
import ToneCommandLine
import ToneCore
import ToneDSP
import ToneModem
import ToneEngine
import ToneJack
import ToneFileCommands

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
    @OptionGroup(title: "Live page") var web: WebOptions

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
        let supervisor = NodeSupervisor(settings: nodeSettings(), reconnect: reconnect.reconnects)
        let stop = supervisor.stopRequester
        SignalWatcher.endsOnSignal(stop)
        Console.onOutputFailure(stop)
        let session = ReceiveSession(self, stop: stop)
        defer { session.cancelTasks() }
        // The live page: the messages as they arrive (it only watches).
        let page = try await NodeWeb.start(web, supervisor: supervisor, channels: supervisor.settings.channels,
                                           command: "receive", controls: false)
        let outcome: NodeSupervisor.Outcome
        do {
            outcome = try await supervisor.run { event in
                session.handle(event)
                page?.handle(event)
            }
        } catch {
            await page?.server.stop()
            throw error
        }
        await page?.server.stop()
        try session.finish(outcome)
    }

    /// The node `receive` runs: muted, no tone readings, the messages of --profile (else every profile).
    private func nodeSettings() -> NodeSettings {
        var settings = NodeSettings()
        jack.apply(to: &settings)
        settings.muted = true
        settings.analyzesTones = false
        settings.receiveMessages(only: profile)
        settings.ports = Self.ports(profile)
        return settings
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
