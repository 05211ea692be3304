import ArgumentParser
import ToneCore
import ToneDSP

/// Which JACK server and client name, and what to connect.
struct JackOptions: ParsableArguments {
    @Option(name: [.customShort("n"), .long], help: "JACK client name (JACK may append -01 if it is taken).")
    var name = "tonenode"

    @Option(name: [.customShort("s"), .long],
            help: "JACK server name (default: $JACK_DEFAULT_SERVER, else the default server).")
    var server: String?

    @Option(name: .customLong("connect-in"), help: ArgumentHelp(
        "Connect this port to our `in` after activation (repeatable).", valueName: "port"))
    var connectIn: [String] = []

    @Option(name: .customLong("connect-out"), help: ArgumentHelp(
        "Connect our `out` to this port after activation (repeatable).", valueName: "port"))
    var connectOut: [String] = []

    @Flag(help: "Set no JACK metadata (pretty names). Metadata calls are bounded anyway (a store that does not answer within 1 s is one warning line); this skips them.")
    var noMetadata = false

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

    func validate() throws {
        guard !name.isEmpty, name.utf8.count <= 63 else {
            throw ValidationError("--name must be 1 to 63 bytes long")
        }
    }
}
