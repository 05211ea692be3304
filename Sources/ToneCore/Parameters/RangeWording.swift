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
