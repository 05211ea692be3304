import ArgumentParser
import ToneCore
import ToneDSP

/// Which JACK server and client name, and what to connect: every command
/// that opens a node's ports (run, measure, link, audit, send, receive). `send`
/// has an `in` and `receive` an `out` only with `--profile cable` (a
/// session's return path); with any other profile the connection is refused
/// by `NodeSettings.validate`, the one home of the rule, in words
/// ("--connect-in does not apply: this command has no `in` port").
public struct JackOptions: ParsableArguments, JackPlacement {
    public init() {}

    @OptionGroup public var client: JackClientOptions
    @OptionGroup public var input: JackInputOptions
    @OptionGroup public var output: JackOutputOptions
    @OptionGroup public var metadata: JackMetadataOption

    public var connectIn: [String] { input.connectIn }
    public var connectOut: [String] { output.connectOut }
}

/// The client every command opens: its name and the server.
public struct JackClientOptions: ParsableArguments {
    public init() {}

    @Option(name: [.customShort("n"), .long], help: "JACK client name (JACK may append -01 if it is taken).")
    public var name = "tonenode"

    @OptionGroup public var jackServer: ServerOption
    public var server: String? { jackServer.server }

    public func validate() throws {
        guard !name.isEmpty, name.utf8.count <= 63 else {
            throw ValidationError("--name must be 1 to 63 bytes long")
        }
    }
}

/// Connections to our `in`.
public struct JackInputOptions: ParsableArguments {
    public init() {}

    @Option(Parameters.connectIn)
    public var connectIn: [String]
}

/// Connections from our `out`.
public struct JackOutputOptions: ParsableArguments {
    public init() {}

    @Option(Parameters.connectOut)
    public var connectOut: [String]
}

public struct JackMetadataOption: ParsableArguments {
    public init() {}

    @Flag(help: "Set no JACK metadata (pretty names). Metadata calls are bounded anyway (a store that does not answer within 1 s is one warning line); this skips them.")
    public var noMetadata = false
}

/// What every JACK option group gives a command: the settings it places.
public protocol JackPlacement {
    var client: JackClientOptions { get }
    var metadata: JackMetadataOption { get }
    var connectIn: [String] { get }
    var connectOut: [String] { get }
}

extension JackPlacement {
    public var name: String { client.name }
    public var server: String? { client.server }
    public var noMetadata: Bool { metadata.noMetadata }

    public func apply(to settings: inout NodeSettings) {
        settings.usesMetadata = !noMetadata
        place(&settings)
    }

    /// Name, server and connections, for any client a command opens.
    public func place<Settings: ClientPlacement>(_ settings: inout Settings) {
        settings.clientName = name
        settings.serverName = server
        settings.connectIn = connectIn
        settings.connectOut = connectOut
    }
}
