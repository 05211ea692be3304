import Foundation

/// One JSON object written as one line: every command's JSON output goes
/// through it, so strings are escaped one way and numbers have one spelling
/// per kind of figure.
///
/// Fields keep the order they are added in (scripts and people read the
/// lines, and `JSONEncoder` would neither keep the order nor the number
/// styles the output has always had). Nothing here checks for duplicate keys:
/// the callers are the formatters, each with a fixed list of fields.
public struct JSONLine: CustomStringConvertible {
    /// How a `Double` is spelled. A nil or non-finite value is `null` in every style.
    public enum NumberStyle: Sendable {
        /// Swift's shortest round-tripping form (`440.0`, `1e-05`): the reports.
        case shortest
        /// A fixed number of decimals (`%.4f`): the decoded messages.
        case decimals(Int)
    }

    /// `{` and the fields so far.
    private var body = "{"

    /// Room for a report line up front, so adding fields does not regrow it.
    public init() { body.reserveCapacity(192) }

    /// `{…}`, the line without its newline.
    public var description: String { body + "}" }

    // MARK: - Fields

    /// A string field; `null` when `value` is nil.
    public mutating func add(_ key: String, _ value: String?) {
        append(key, value.map(Self.quoted) ?? "null")
    }

    /// A number field; `null` when `value` is nil, NaN or infinite.
    public mutating func add(_ key: String, _ value: Double?, _ style: NumberStyle = .shortest) {
        if case .shortest = style, let value, value.isFinite {
            // Written in place: the text `number` gives, without a string of its own.
            appendKey(key)
            value.write(to: &body)
            return
        }
        append(key, Self.number(value, style))
    }

    public mutating func add(_ key: String, _ value: Int) {
        append(key, String(value))
    }

    /// An integer field; `null` when `value` is nil.
    public mutating func add(_ key: String, _ value: Int?) {
        append(key, value.map { String($0) } ?? "null")
    }

    public mutating func add(_ key: String, _ value: Bool) {
        append(key, value ? "true" : "false")
    }

    /// An array of objects: `"key":[{…},{…}]`.
    public mutating func add(_ key: String, _ objects: [JSONLine]) {
        append(key, "[" + objects.map(\.description).joined(separator: ",") + "]")
    }

    /// A nested object: `"key":{…}`.
    public mutating func add(_ key: String, _ object: JSONLine) {
        append(key, object.description)
    }

    /// An array of numbers: `"key":[1.0,null,…]`.
    public mutating func add(_ key: String, _ numbers: [Double], _ style: NumberStyle = .shortest) {
        append(key, "[" + numbers.map { Self.number($0, style) }.joined(separator: ",") + "]")
    }

    /// Appends in place (no temporary strings for the pieces): a live node writes one line per hop.
    private mutating func append(_ key: String, _ valueText: String) {
        appendKey(key)
        body.append(valueText)
    }

    /// `"key":`, after a comma unless it is the first field.
    private mutating func appendKey(_ key: String) {
        if body.utf8.count > 1 { body.append(",") }
        body.append("\"")
        body.append(Self.oneLine(key, forJSON: true))
        body.append("\":")
    }

    // MARK: - Values

    /// A JSON number, or `null` for nil and anything non-finite (JSON has no NaN or infinity).
    public static func number(_ value: Double?, _ style: NumberStyle = .shortest) -> String {
        guard let value, value.isFinite else { return "null" }
        switch style {
        case .shortest: return value.description   // the same text as "\(value)", without an interpolation buffer
        case .decimals(let digits): return String(format: "%.\(digits)f", value)
        }
    }

    /// A JSON string literal that stays on one line and is safe to embed in
    /// JavaScript: quote, backslash and control characters escaped, DEL and
    /// U+2028/U+2029 (line breaks to JavaScript) as `\u` escapes; the rest,
    /// `/` and non-ASCII included, as it is.
    public static func quoted(_ text: String) -> String {
        "\"" + oneLine(text, forJSON: true) + "\""
    }

    /// `text` kept on one line: line breaks, tabs and other control
    /// characters as backslash escapes. `forJSON` also escapes the quote and
    /// the backslash, and U+2028/U+2029; for people they stay as they are.
    public static func oneLine(_ text: String, forJSON: Bool) -> String {
        // Most text (every key, most values) is printable ASCII with nothing
        // to escape: it is returned as it is, without a scalar-by-scalar copy.
        let isPlain = { (byte: UInt8) in
            byte >= 0x20 && byte < 0x7F && !(forJSON && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")))
        }
        // Over the bytes in place where the string has them so (literals,
        // native strings: every key), which costs a fraction of the view's iterator.
        let plain = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPlain) } ?? text.utf8.allSatisfy(isPlain)
        if plain { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where forJSON: out += "\\\""
            case "\\" where forJSON: out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                let lineBreakToJavaScript = forJSON && (scalar.value == 0x2028 || scalar.value == 0x2029)
                if scalar.value < 0x20 || scalar.value == 0x7F || lineBreakToJavaScript {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
