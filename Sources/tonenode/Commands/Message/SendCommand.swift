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

struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a message as tones on a JACK port `out`, once, then exit.",
        discussion: """
            Plays the message (TEXT, --file, or - for stdin) once on `out` and exits \
            when its last sample has left. Never starts a server.
            --profile cable with a port on `in` (--connect-in RX:out): a session with \
            `receive --profile cable` (resends, SHA-256 checked by both); -o: both ways at once.
            Exit status: 0 when every sample went out (a session: the receiver confirmed the file), \
            1 on an error or a session that timed out, 64 on a bad option.
            Full guide: messages.md (docs/ in the source, /usr/share/doc/tonenode/ from the .deb).
            """)

    @OptionGroup(title: "JACK") var jack: JackOptions
    @OptionGroup(title: "Message") var input: MessageInput

    @Option(Parameters.Message.fileProfile)
    var profile: MessageFileProfile

    @Option(Parameters.Message.level, parsing: .unconditional)
    var level: Double

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "A cable session gives up when the receiver has not answered for this long (default 36).", valueName: "seconds"))
    var timeout: Double?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "With --profile cable: also receive the peer's file into this path (a two-way session).", valueName: "path"))
    var output: String?

    func validate() throws {
        try Parameters.Message.level.validateLevel(dBFS: level)
        if let timeout, !(timeout.isFinite && timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if let output {
            guard profile == .cable else { throw ValidationError("-o applies only to --profile cable (a two-way session)") }
            try OutputFileProblem.requireWritable(path: output)
        }
        try NodeSettings.validate([.connectIn]) { jack.apply(to: &$0); $0.ports = Self.ports(profile) }
    }

    /// `out`; and `in` with the cable profile, the return path of a session. No MIDI.
    static func ports(_ profile: MessageFileProfile) -> NodePorts { profile == .cable ? [.audioIn, .audioOut] : [.audioOut] }

    func run() async throws {
        // Read the message before touching JACK: bad input never opens a client.
        let message = try input.read(capped: profile != .cable)
        var settings = NodeSettings()
        jack.apply(to: &settings)
        settings.muted = true
        settings.analyzesTones = false
        settings.ports = Self.ports(profile)
        if profile == .cable {
            // The session's answers come back as cable transmissions on `in`.
            settings.receivesMessages = true
            settings.receivesCable = true
            settings.messageProfiles = []
        }
        let node = try Node(settings: settings)
        defer { node.stop() }
        jack.renameWarnings(actualName: node.client.name).forEach { Console.err($0) }
        // Tones played into no port reach no one: not a success. (A
        // connection just made shows a cycle or two later: see hasConnections.)
        // Two ways (-o), send waits for the peer to connect it (`hasReturnPath`).
        if output == nil, !node.client.hasConnections(ofPort: node.outputPortName) {
            throw ModemCommandError("nothing is connected to \(node.outputPortName), so no one would hear the message; "
                                    + "connect it with --connect-out PORT (nothing was sent)")
        }
        guard case .tones(let tones) = profile else {
            if await hasReturnPath(node) { return try await sendCableSession(message, on: node) }
            if output != nil {
                throw ModemCommandError(String(format: "nothing connected %@'s `in` and `out` within %.0f s; a two-way session needs "
                                               + "the peer (send --profile cable -o, with --connect-in and --connect-out)",
                                               node.client.name, timeout ?? Self.defaultTimeoutSeconds))
            }
            return try await sendCable(message, on: node)
        }
        let rate = node.sampleRateHz
        let samples = try Transmission.render(message, profile: tones, sampleRateHz: rate, levelDBFS: level)
        let serverGone = node.serverGoneReader
        guard await node.play(samples, shouldStop: { SignalWatcher.isStopRequested || serverGone() }) else {
            if SignalWatcher.isStopRequested { throw ExitCode.failure }    // ends with 128 + signal
            // Nothing to wait for: a message cut short is not resumed on a server that comes back.
            if serverGone() {
                Console.err(ServerNotice.goneLine(retrying: false))
                throw ExitCode.failure
            }
            throw ModemCommandError("the JACK server stopped taking samples before the message had gone out")
        }
        let frames = (message.count + ModemParameters.payloadBytesPerFrame - 1) / ModemParameters.payloadBytesPerFrame
        Console.err(String(format: "sent %d bytes in %d frame(s) on %@, profile %@, %.3f s at %.0f Hz",
                           message.count, frames, node.outputPortName, profile.rawValue,
                           Double(samples.count) / rate, rate))
    }
}
