/// A change to a running node, typed on stdin (one per line) by a script or
/// a person: `freq HZ`, `level DBFS`, `mute on|off` (also `1|0`). The OSC
/// spelling `/tonenode/freq 440` is accepted too. Blank lines and `#`
/// comments are ignored.
public enum ControlCommand: Equatable, Sendable {
    case frequency(hz: Double)
    case level(dbfs: Double)
    case mute(Bool)

    /// A control line that cannot be applied; the node keeps its settings.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// The command on `line`; nil for a blank line or a comment.
    public static func parse(_ line: String) throws(Problem) -> ControlCommand? {
        let words = line.split(whereSeparator: \.isWhitespace)
        guard let first = words.first, !first.hasPrefix("#") else { return nil }
        let name = first.hasPrefix("/tonenode/") ? first.dropFirst("/tonenode/".count) : first[...]
        guard ["freq", "level", "mute"].contains(name) else {
            throw Problem("'\(line)': unknown command '\(name)' (known: freq, level, mute)")
        }
        guard words.count == 2 else {
            throw Problem("'\(line)': expected one command and one value, e.g. 'freq 440', 'level -12', 'mute on'")
        }
        let value = String(words[1])
        switch name {
        case "freq":
            guard let hz = Double(value), hz.isFinite, hz > 0 else {
                throw Problem("'\(line)': freq takes a positive number of Hz")
            }
            return .frequency(hz: hz)
        case "level":
            guard let dbfs = Double(value), dbfs.isFinite, dbfs <= 0 else {
                throw Problem("'\(line)': level takes a finite number of dBFS at or below 0")
            }
            return .level(dbfs: dbfs)
        case "mute":
            switch value.lowercased() {
            case "on", "1", "true", "yes": return .mute(true)
            case "off", "0", "false", "no": return .mute(false)
            default: throw Problem("'\(line)': mute takes on or off")
            }
        default:
            preconditionFailure("checked above")
        }
    }

    /// The settings with this command applied, or the reason it cannot be at
    /// this sample rate (nothing changes then).
    public func applied(to settings: NodeSettings, sampleRateHz: Double) throws(Problem) -> NodeSettings {
        var changed = settings
        switch self {
        case .frequency(let hz):
            guard hz < sampleRateHz / 2 else {
                throw Problem("freq \(format(hz)) Hz is at or above the Nyquist frequency \(format(sampleRateHz / 2)) Hz of this server")
            }
            changed.frequencyHz = hz
        case .level(let dbfs): changed.levelDBFS = dbfs
        case .mute(let muted): changed.muted = muted
        }
        return changed
    }
}
