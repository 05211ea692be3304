import ArgumentParser
import ToneCore
import ToneDSP

/// Which JACK server and client name, and what to connect: every option a
/// command with both `in` and `out` takes (run, measure, link, audit). `send`
/// and `receive` list the same groups minus the side they have no port for
/// (`JackSendOptions`, `JackReceiveOptions`), so their `--help`, manual page
/// and completions show only options that apply. They still parse that side,
/// privately: `NodeSettings.validate`, the one home of the rule, refuses it in
/// words ("--connect-in does not apply: this command has no `in` port") where
/// the parser would only say "Unknown option".
struct JackOptions: ParsableArguments, JackPlacement {
    @OptionGroup var client: JackClientOptions
    @OptionGroup var input: JackInputOptions
    @OptionGroup var output: JackOutputOptions
    @OptionGroup var metadata: JackMetadataOption

    var connectIn: [String] { input.connectIn }
    var connectOut: [String] { output.connectOut }
}

/// `send`: it has an `out` and no `in`, so no `--connect-in` (parsed, unlisted,
/// refused by `NodeSettings.validate`).
struct JackSendOptions: ParsableArguments, JackPlacement {
    @OptionGroup var client: JackClientOptions
    @OptionGroup var output: JackOutputOptions
    @OptionGroup var metadata: JackMetadataOption
    @OptionGroup(visibility: .private) var refusedInput: JackInputOptions

    var connectIn: [String] { refusedInput.connectIn }
    var connectOut: [String] { output.connectOut }
}

/// `receive`: it has an `in` and no `out`, so no `--connect-out` (parsed,
/// unlisted, refused by `NodeSettings.validate`).
struct JackReceiveOptions: ParsableArguments, JackPlacement {
    @OptionGroup var client: JackClientOptions
    @OptionGroup var input: JackInputOptions
    @OptionGroup var metadata: JackMetadataOption
    @OptionGroup(visibility: .private) var refusedOutput: JackOutputOptions

    var connectIn: [String] { input.connectIn }
    var connectOut: [String] { refusedOutput.connectOut }
}

/// The client every command opens: its name and the server.
struct JackClientOptions: ParsableArguments {
    @Option(name: [.customShort("n"), .long], help: "JACK client name (JACK may append -01 if it is taken).")
    var name = "tonenode"

    @Option(name: [.customShort("s"), .long],
            help: "JACK server name (default: $JACK_DEFAULT_SERVER, else the default server).")
    var server: String?

    func validate() throws {
        guard !name.isEmpty, name.utf8.count <= 63 else {
            throw ValidationError("--name must be 1 to 63 bytes long")
        }
    }
}

/// Connections to our `in`.
struct JackInputOptions: ParsableArguments {
    @Option(Parameters.connectIn)
    var connectIn: [String]
}

/// Connections from our `out`.
struct JackOutputOptions: ParsableArguments {
    @Option(Parameters.connectOut)
    var connectOut: [String]
}

struct JackMetadataOption: ParsableArguments {
    @Flag(help: "Set no JACK metadata (pretty names). Metadata calls are bounded anyway (a store that does not answer within 1 s is one warning line); this skips them.")
    var noMetadata = false
}

/// What every JACK option group gives a command: the settings it places.
protocol JackPlacement {
    var client: JackClientOptions { get }
    var metadata: JackMetadataOption { get }
    var connectIn: [String] { get }
    var connectOut: [String] { get }
}

extension JackPlacement {
    var name: String { client.name }
    var server: String? { client.server }
    var noMetadata: Bool { metadata.noMetadata }

    func apply(to settings: inout NodeSettings) {
        settings.usesMetadata = !noMetadata
        place(&settings)
    }

    /// Name, server and connections, for any client a command opens.
    func place<Settings: ClientPlacement>(_ settings: inout Settings) {
        settings.clientName = name
        settings.serverName = server
        settings.connectIn = connectIn
        settings.connectOut = connectOut
    }
}
