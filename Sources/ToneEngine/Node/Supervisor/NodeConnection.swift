/// One connection of ours, described by the other end, so it survives our
/// ports being renamed (a reopened client may be called `tonenode-01`).
public enum NodeConnection: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// That port feeds our input `ours` (a short name: `in`, `in_2`, `midi_in`).
    case intoInput(from: String, ours: String)
    /// Our output `ours` (`out`, `out_2`) feeds that port.
    case fromOutput(ours: String, to: String)
    /// Our output feeds our own input.
    case selfLoop(output: String, input: String)

    public var description: String {
        switch self {
        case .intoInput(let port, let ours): "\(port) → \(ours)"
        case .fromOutput(let ours, let port): "\(ours) → \(port)"
        case .selfLoop(let output, let input): "\(output) → \(input)"
        }
    }
}
