import ArgumentParser

/// `-s/--server`: the JACK server every command that talks to one takes.
public struct ServerOption: ParsableArguments {
    public init() {}

    @Option(name: [.customShort("s"), .long],
            help: "JACK server name (default: $JACK_DEFAULT_SERVER, else the default server).")
    public var server: String?
}
