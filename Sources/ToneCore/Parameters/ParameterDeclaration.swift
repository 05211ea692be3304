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
