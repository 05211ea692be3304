import ToneDSP

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

extension ClosedRange<Int> {
    /// The same values as `Double`s, for a `Parameter`'s range.
    public var asDoubles: ClosedRange<Double> { Double(lowerBound)...Double(upperBound) }
}
