/// Where a JACK client that ToneNode opens goes, as the command line says:
/// its name, its server and what to connect to its ports. The node
/// (`NodeSettings`), the measurement recorder and the link meter each open a
/// client of their own and take these four the same way.
public protocol ClientPlacement {
    var clientName: String { get set }
    /// nil: `$JACK_DEFAULT_SERVER` or the default server.
    var serverName: String? { get set }
    /// Ports to connect to our inputs.
    var connectIn: [String] { get set }
    /// Ports to connect our outputs to.
    var connectOut: [String] { get set }
}

extension NodeSettings: ClientPlacement {}
