import ToneCore
import ToneCommandLine

/// What every command says when the server goes away or changes its sample
/// rate under it: one line on stderr (and, for the rate, a JSON event among
/// `run --json`'s reports). One home for the words, so `run`, `receive`,
/// `link` and `send` say the same on jackd2 and PipeWire.
enum ServerNotice {
    /// The server went away. `retrying`: the command waits for it to come
    /// back (`run`, `receive`, `link`); else it exits 1 with this line.
    static func goneLine(retrying: Bool) -> String {
        (retrying ? "" : "error: ") + "the JACK server shut the client down" + (retrying ? "; waiting for it to come back" : "")
    }

    /// The server's sample rate changed under a running client (PipeWire's `clock.force-rate`).
    static func sampleRateChangedLine(fromHz: Int, toHz: Int) -> String {
        "sample rate changed from \(fromHz) to \(toHz) Hz; reopening the client at the new rate"
    }

    /// The same as a JSON event among the reports (`--json`).
    static func sampleRateChangedJSON(toHz: Int) -> String {
        var line = JSONLine()
        line.add("event", "sample_rate_changed")
        line.add("sample_rate_hz", toHz)
        return line.description
    }
}
