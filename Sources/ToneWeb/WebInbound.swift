/// What a page may send over its socket, and how often: one control line
/// per text message (`control frequency 440`). Anything else closes the
/// socket (the node keeps running): a binary frame, a message over
/// `maxBytes`, a character outside printable ASCII, another verb, or more
/// than `burst` messages faster than `perSecond` refills them.
public struct WebInbound: Sendable {
    /// The longest control line (the longest real one, a sweep, is ~40 bytes).
    public static let maxBytes = 256
    /// Messages a page may send at once, and refilled per second after that
    /// (a person dragging a slider sends ~30 a second at most; the page sends fewer).
    public static let burst = 40.0
    public static let perSecond = 20.0
    static let prefix = "control "

    private var allowance = Self.burst
    private var lastSeconds: Double?

    public init() {}

    /// What to do with one message.
    public enum Verdict: Sendable, Equatable {
        /// A control line for `ControlCommand.parse` (which may still refuse its values).
        case control(String)
        /// Close the socket: the reason, for the close frame.
        case close(String)
    }

    /// Judges a text message received at `nowSeconds` (any monotonic clock).
    public mutating func judge(text: String, nowSeconds: Double) -> Verdict {
        if let lastSeconds { allowance = min(Self.burst, allowance + (nowSeconds - lastSeconds) * Self.perSecond) }
        lastSeconds = nowSeconds
        guard allowance >= 1 else { return .close("too many messages") }
        allowance -= 1
        guard text.utf8.count <= Self.maxBytes else { return .close("message too long") }
        guard text.utf8.allSatisfy({ (0x20...0x7e).contains($0) }) else { return .close("malformed message") }
        guard text.hasPrefix(Self.prefix) else { return .close("malformed message") }
        let line = text.dropFirst(Self.prefix.count).trimmingSpaces
        guard !line.isEmpty else { return .close("malformed message") }
        return .control(line)
    }

    /// A binary frame: never sent by the page.
    public func judgeBinary() -> Verdict { .close("malformed message") }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
