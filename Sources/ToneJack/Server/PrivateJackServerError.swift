/// Why a private `jackd` (`tonenode demo`, the integration tests) did not
/// start. Each `description` is one line a person can act on. (Not `JackServerError`:
/// that is a `jack_status_t` flag of the C API.)
public enum PrivateJackServerError: Error, Equatable, CustomStringConvertible {
    /// No `jackd` on `PATH`.
    case notInstalled
    /// The process could not be launched; `reason` is the system's.
    case cannotLaunch(reason: String)
    /// jackd refused: JACK's registry holds at most eight servers.
    case refusedTooManyServers(name: String)
    /// No client could connect within `seconds` while jackd kept running.
    case didNotComeUp(name: String, seconds: Double)
    /// jackd ended before a client could connect: `how` says how ("exit
    /// status 1", "signal 6"), `lastLine` is its log's last line ("" when
    /// there is no log or it printed nothing past its banner).
    case endedAtStartUp(name: String, how: String, lastLine: String)

    public var description: String {
        switch self {
        case .notInstalled: "jackd not found on PATH: install it (Debian: apt-get install jackd2)"
        case .cannotLaunch(let reason): "could not start jackd: \(reason)"
        case .refusedTooManyServers(let name): "jackd '\(name)' refused to start: eight JACK servers are running already"
        case .didNotComeUp(let name, let seconds): "jackd '\(name)' did not come up within \(seconds) s"
        case .endedAtStartUp(let name, let how, let lastLine):
            "jackd '\(name)' ended while starting (\(how))" + (lastLine.isEmpty ? "" : ": \(lastLine)")
        }
    }
}
