import CJack

/// Which JACK library this process loaded: jackd2's libjack, or PipeWire's
/// (`pw-jack`, or its libjack installed system-wide), which talks to a
/// PipeWire graph instead of a jackd. Asked once; any thread.
public enum JackLibrary {
    /// The library's own version text: "1.9.21" (jackd2), "3.0.0.0 (using PipeWire 0.3.65)" (PipeWire).
    public static let versionText: String = jack_get_version_string().map { String(cString: $0) } ?? ""

    /// Whether the server is PipeWire: a client's own out → in carries
    /// silence there, so `--loopback` runs through a `LoopRelay`.
    public static let isPipeWire: Bool = versionText.contains("PipeWire")
}
