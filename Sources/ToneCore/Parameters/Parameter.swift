import ToneDSP

/// What every parameter declares whatever its value's type: its names on
/// each door into ToneNode (command line, session file, control line and
/// OSC) and its help. `Parameters.all` lists them for the tests that walk them.
public protocol ParameterDeclaration: Sendable {
    /// What a person calls it (`tone frequency`); it names the setting where no door has a name for it.
    var name: String { get }
    var unit: String? { get }
    /// The command line's help text (`--help`, the manual page).
    var help: String { get }
    /// The command-line flag (`--freq`); nil: none.
    var flag: String? { get }
    /// The placeholder `--help` shows for its value (`hz`); nil: a flag without a value, or the parser's own.
    var valueName: String? { get }
    /// The session-file fields that hold it (`lowHz`, `highHz`); empty: a session does not keep it.
    var sessionFields: [SessionField] { get }
    /// Its command on control lines and OSC (`freq`, `/tonenode/freq`); nil: none.
    var controlName: String? { get }
    /// What its range requires, after "must be" (`from 1 to 8`); nil: its
    /// range, if any, is checked by a named rule of its own (NodeSettings+Validation).
    var rangeRequirement: String? { get }
    /// The values it takes, for numbers; nil: any finite value, or a rule of its own.
    var range: ClosedRange<Double>? { get }
    /// Its default as a number (a flag's 0 or 1), as an LV2 port states it; nil: not a number.
    var defaultNumber: Double? { get }
    /// The LV2 plugin's control port that is this parameter (`tonenode.ttl` states its default, and its range when shared).
    var lv2Port: LV2Port? { get }
    /// How a control line writes it (`freq HZ`, `mute on|off`) and its OSC
    /// argument types (`f`, `i`); nil: it has no control name.
    var controlUsage: (name: String, form: String, oscTypes: String)? { get }
    /// Its value in `settings` when outside its range (checked with `rangeWording`); nil:
    /// in range, or not a setting of the node.
    func rangeProblem(in settings: NodeSettings) -> SettingsProblem?
}

extension ParameterDeclaration {
    /// How the command line names it: its flag, else its name (`sample rate`).
    public var commandLineName: String { flag ?? name }

    /// The session file's key, `lowHz:highHz` for a pair; nil when a session does not keep it.
    public var sessionKey: String? {
        sessionFields.isEmpty ? nil : sessionFields.map(\.key).joined(separator: ":")
    }
}

/// One parameter: its names, unit, default and the values it takes. The one
/// place each of these is written; option groups, `NodeSettings`, control
/// lines, OSC, sessions and the texts of `SettingsProblem` read them here.
public struct Parameter<Value: Sendable>: ParameterDeclaration {
    public let name: String
    public let unit: String?
    public let defaultValue: Value
    /// The values it takes, for numbers; nil: any finite value, or a rule of
    /// its own that its check states (a frequency below Nyquist, a power of two).
    public let range: ClosedRange<Double>?
    public let help: String
    public let flag: String?
    public let valueName: String?
    /// Where the node keeps it (`\.frequencyHz`); nil: not a setting of the node (`measure`'s, `link`'s).
    public let setting: (WritableKeyPath<NodeSettings, Value> & Sendable)?
    public let sessionFields: [SessionField]
    public let controlName: String?
    public let rangeWording: RangeWording?
    public let lv2Port: LV2Port?

    /// - Parameters:
    ///   - setting: where `NodeSettings` keeps it.
    ///   - session: the session file's keys for it.
    ///   - control: its command on control lines and OSC.
    ///   - rangeWording: how its range reads in an error; given, `NodeSettings.problems` checks the range.
    public init(_ name: String, unit: String? = nil, default defaultValue: Value, range: ClosedRange<Double>? = nil,
                rangeWording: RangeWording? = nil, help: String, flag: String?, valueName: String? = nil,
                setting: (WritableKeyPath<NodeSettings, Value> & Sendable)? = nil,
                session sessionFields: [SessionField] = [], control controlName: String? = nil, lv2 lv2Port: LV2Port? = nil) {
        self.name = name
        self.unit = unit
        self.defaultValue = defaultValue
        self.range = range
        self.rangeWording = rangeWording
        self.help = help
        self.flag = flag
        self.valueName = valueName
        self.setting = setting
        self.sessionFields = sessionFields
        self.controlName = controlName
        self.lv2Port = lv2Port
    }

    public var defaultNumber: Double? {
        switch defaultValue {
        case let number as Double: number
        case let number as Int: Double(number)
        case let flag as Bool: flag ? 1 : 0
        default: nil
        }
    }

    public var rangeRequirement: String? { rangeWording?.text(self) }

    public var controlUsage: (name: String, form: String, oscTypes: String)? {
        guard let controlName else { return nil }
        if Value.self == Bool.self { return (controlName, "\(controlName) on|off", "i") }
        return (controlName, "\(controlName) \((valueName ?? "value").uppercased())", "f")
    }

    public func rangeProblem(in settings: NodeSettings) -> SettingsProblem? {
        guard let setting else { return nil }
        return rangeProblem(settings[keyPath: setting])
    }

    /// `value` when outside the range its wording states (nil: in range, or no wording).
    public func rangeProblem(_ value: Value) -> SettingsProblem? {
        guard rangeWording != nil, let number = (value as? Double) ?? (value as? Int).map(Double.init), !accepts(number) else { return nil }
        return SettingsProblem(SettingsProblem.Setting(self), .outOfRange("\(value)"))
    }

    /// Whether `value` is finite and in `range`.
    public func accepts(_ value: Double) -> Bool { value.isFinite && range.map { $0.contains(value) } != false }

    /// The range in a sentence: `1 to 8` (`1 and 8` with `word` "and").
    public func rangeText(_ word: String = "to") -> String {
        guard let range else { return "any value" }
        return "\(format(range.lowerBound)) \(word) \(format(range.upperBound))"
    }

    /// The highest value it takes, as text (`0` for a level).
    public var maximumText: String { range.map { format($0.upperBound) } ?? "any" }

    /// The range as `--help` writes it: `1…8`.
    public var rangeSpan: String {
        guard let range else { return "any" }
        return "\(format(range.lowerBound))…\(format(range.upperBound))"
    }
}

/// A control port of the LV2 bundle that is a parameter of the node (`tonenode.ttl`).
public struct LV2Port: Sendable, Equatable {
    public enum Plugin: Sendable { case analyzer, generator }
    public let plugin: Plugin
    public let symbol: String
    /// Whether the port's bounds are the declaration's (each finite one).
    public let sharesRange: Bool

    public static func analyzer(_ symbol: String, sharesRange: Bool = false) -> LV2Port {
        LV2Port(plugin: .analyzer, symbol: symbol, sharesRange: sharesRange)
    }

    public static func generator(_ symbol: String, sharesRange: Bool = false) -> LV2Port {
        LV2Port(plugin: .generator, symbol: symbol, sharesRange: sharesRange)
    }
}

/// How a range reads after "must be": `from 1 to 8`, `between 1 and 16`,
/// `a number of semitones from 0 to 24`.
public enum RangeWording: Equatable, Sendable {
    /// `from LO to HI`, after what the value is when given (`a frequency in Hz`).
    case from(String?)
    /// `between LO and HI`.
    case between

    /// The words after "must be" for `parameter`'s range.
    func text<Value>(_ parameter: Parameter<Value>) -> String {
        switch self {
        case .from(let noun): (noun.map { "\($0) " } ?? "") + "from \(parameter.rangeText())"
        case .between: "between \(parameter.rangeText("and"))"
        }
    }
}

extension ClosedRange<Int> {
    /// The same values as `Double`s, for a `Parameter`'s range.
    public var asDoubles: ClosedRange<Double> { Double(lowerBound)...Double(upperBound) }
}
