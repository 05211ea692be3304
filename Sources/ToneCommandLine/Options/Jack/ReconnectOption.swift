import ArgumentParser

/// `--no-reconnect`: a command that waits for a server that went away (run,
/// receive, link) exits instead.
public struct ReconnectOption: ParsableArguments {
    public init() {}

    @Flag(help: "Exit (status 1) when the JACK server goes away, instead of waiting for it to come back.")
    public var noReconnect = false

    /// Whether to wait for the server to come back.
    public var reconnects: Bool { !noReconnect }
}
