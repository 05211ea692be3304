import ToneDSP

/// A change to a running node, typed on stdin (one per line) by a script or
/// a person, or sent over OSC: `freq HZ`, `level DBFS`, `mute on|off` (also
/// `1|0`), `beep HZ SECONDS`, `sweep START_HZ END_HZ SECONDS`. The OSC
/// spelling `/tonenode/freq 440` is accepted too. Blank lines and `#`
/// comments are ignored.
public enum ControlCommand: Equatable, Sendable, CustomStringConvertible {
    case frequency(hz: Double)
    case level(dbfs: Double)
    case mute(Bool)
    /// How long frequency and level changes ramp (`glide SECONDS`).
    case glide(seconds: Double)
    /// A click-free beep at the present level (raised-cosine edges), then back to the tone.
    case beep(hz: Double, seconds: Double)
    /// A logarithmic sweep at the present level, then back to the tone.
    case sweep(startHz: Double, endHz: Double, seconds: Double)

    /// A control line that cannot be applied; the node keeps its settings.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Where OSC paths start: `/tonenode/` + a command's name.
    public static let oscPrefix = "/tonenode/"

    /// The names of the commands that set a parameter: the declarations' control names.
    public static let frequencyName = name(of: Parameters.frequency)
    public static let levelName = name(of: Parameters.level)
    public static let muteName = name(of: Parameters.mute)
    public static let glideName = name(of: Parameters.glide)

    /// Command names, how each is written on a line, and its OSC argument
    /// types: the node's declarations that have a control name, then beep
    /// and sweep (which play, and set no parameter).
    public static let usage: [(name: String, form: String, oscTypes: String)] = Parameters.node.compactMap(\.controlUsage) + [
        ("beep", "beep HZ SECONDS", "f f"), ("sweep", "sweep START_HZ END_HZ SECONDS", "f f f"),
    ]

    private static func name(of parameter: some ParameterDeclaration) -> String { parameter.controlName ?? parameter.name }

    public var description: String {
        switch self {
        case .frequency(let hz): "\(Self.frequencyName) \(format(hz))"
        case .level(let dbfs): "\(Self.levelName) \(format(dbfs))"
        case .mute(let on): "\(Self.muteName) \(on ? "on" : "off")"
        case .glide(let seconds): "\(Self.glideName) \(format(seconds))"
        case .beep(let hz, let seconds): "beep \(format(hz)) \(format(seconds))"
        case .sweep(let start, let end, let seconds): "sweep \(format(start)) \(format(end)) \(format(seconds))"
        }
    }

    /// The command on `line`; nil for a blank line or a comment.
    public static func parse(_ line: String) throws(Problem) -> ControlCommand? {
        let words = line.split(whereSeparator: \.isWhitespace)
        guard let first = words.first, !first.hasPrefix("#") else { return nil }
        let name = String(first.hasPrefix(oscPrefix) ? first.dropFirst(oscPrefix.count) : first[...])
        guard let form = usage.first(where: { $0.name == name })?.form else {
            throw Problem("'\(line)': unknown command '\(name)' (known: \(usage.map(\.name).joined(separator: ", ")))")
        }
        let values = words.dropFirst().map(String.init)
        let expected = form.split(separator: " ").count - 1
        guard values.count == expected else {
            throw Problem("'\(line)': \(name) takes \(expected == 1 ? "one value" : "\(expected) values"): '\(form)'")
        }
        do throws(Problem) {
            if name == muteName {
                switch values[0].lowercased() {
                case "on", "1", "true", "yes": return .mute(true)
                case "off", "0", "false", "no": return .mute(false)
                default: throw Problem("\(muteName) takes on or off")
                }
            }
            return try make(name, numbers: values.map { Double($0) ?? .nan })
        } catch {
            throw Problem("'\(line)': " + error.description)
        }
    }

    /// The command `name` with numeric arguments (stdin and OSC share the checks).
    /// A non-finite value (including one that did not parse) is a problem.
    public static func make(_ name: String, numbers: [Double]) throws(Problem) -> ControlCommand {
        func hz(_ value: Double, _ what: String) throws(Problem) -> Double {
            if let problem = NodeSettings.frequencyProblem(value, sampleRateHz: nil) {
                throw Problem(problem.commandDescription(what))
            }
            return value
        }
        func seconds(_ value: Double) throws(Problem) -> Double {
            guard value.isFinite, value > 0, value <= ToneShot.maximumSeconds else {
                throw Problem("\(name) takes a duration in seconds above 0 and at most \(format(ToneShot.maximumSeconds))")
            }
            return value
        }
        switch (name, numbers.count) {
        case (frequencyName, 1):
            return .frequency(hz: try hz(numbers[0], name))
        case (levelName, 1):
            if let problem = NodeSettings.levelProblem(numbers[0]) { throw Problem(problem.commandDescription(name)) }
            return .level(dbfs: numbers[0])
        case (muteName, 1):
            guard numbers[0] == 0 || numbers[0] == 1 else { throw Problem("\(name) takes 1 (on) or 0 (off)") }
            return .mute(numbers[0] == 1)
        case (glideName, 1):
            if let problem = Parameters.glide.rangeProblem(numbers[0]) { throw Problem(problem.commandDescription(name)) }
            return .glide(seconds: numbers[0])
        case ("beep", 2):
            return .beep(hz: try hz(numbers[0], "beep"), seconds: try seconds(numbers[1]))
        case ("sweep", 3):
            return .sweep(startHz: try hz(numbers[0], "sweep"), endHz: try hz(numbers[1], "sweep"),
                          seconds: try seconds(numbers[2]))
        default:
            let form = usage.first { $0.name == name }?.form
            throw Problem(form.map { "expected '\($0)'" } ?? "unknown command '\(name)'")
        }
    }

    /// The settings with this command applied, or the reason it cannot be at
    /// this sample rate (nothing changes then). Beeps and sweeps are checked
    /// but change no setting.
    public func applied(to settings: NodeSettings, sampleRateHz: Double) throws(Problem) -> NodeSettings {
        func belowNyquist(_ hz: Double) throws(Problem) {
            if let problem = NodeSettings.frequencyProblem(hz, sampleRateHz: sampleRateHz) {
                throw Problem(problem.commandDescription(description))
            }
        }
        var changed = settings
        switch self {
        case .frequency(let hz):
            try belowNyquist(hz)
            changed.frequencyHz = hz
        case .level(let dbfs): changed.levelDBFS = dbfs
        case .mute(let muted): changed.muted = muted
        case .glide(let seconds): changed.glideSeconds = seconds
        case .beep(let hz, _): try belowNyquist(hz)
        case .sweep(let start, let end, _):
            try belowNyquist(start)
            try belowNyquist(end)
        }
        return changed
    }

    /// What the audio thread must do for this command, given the settings
    /// after it (beeps and sweeps play at `settings.levelDBFS`).
    public func generatorCommand(settings: NodeSettings, sampleRateHz: Double) -> GeneratorCommand? {
        switch self {
        case .frequency(let hz): return .tone(frequencyHz: hz, sampleRateHz: sampleRateHz)
        case .level: return .level(amplitude: settings.levelAmplitude)
        case .mute(let on): return .mute(on)
        case .glide(let seconds): return .ramp(seconds: seconds, sampleRateHz: sampleRateHz)
        case .beep(let hz, let seconds):
            return ToneShot.beep(frequencyHz: hz, seconds: seconds, amplitude: settings.levelAmplitude,
                                 sampleRateHz: sampleRateHz).map { .shot($0) }
        case .sweep(let start, let end, let seconds):
            return ToneShot.sweep(startHz: start, endHz: end, seconds: seconds, amplitude: settings.levelAmplitude,
                                  sampleRateHz: sampleRateHz).map { .shot($0) }
        }
    }
}
