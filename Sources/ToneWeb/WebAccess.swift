/// Who may use the page: the checks every request and every WebSocket
/// upgrade pass before anything else happens (issue 41's security rules).
///
/// - Host: the name the browser used must be an IP literal, `localhost` or
///   one of `extraHostNames` (the machine's own names), with the port the
///   server listens on. A DNS-rebinding page (`evil.example` resolved to
///   127.0.0.1) names its own domain, and is refused.
/// - Origin (WebSocket only): a browser's socket must come from the page
///   the server itself served (`http://` + the Host it asked for); a
///   cross-site page cannot open one, let alone send controls. A client
///   with no Origin (not a browser: a script) passes this check.
/// - Token: when the server has one (always off loopback), the socket must
///   carry it (`?token=`); without it, no readings and no controls.
public struct WebAccess: Sendable, Equatable {
    /// The port the server listens on (after port 0 picked one).
    public var port: Int
    /// The secret every socket must carry; nil: none needed (loopback only).
    public var token: String?
    /// Host names besides IP literals and `localhost` (lowercased, no port).
    public var extraHostNames: Set<String>

    public init(port: Int, token: String?, extraHostNames: Set<String> = []) {
        self.port = port
        self.token = token
        self.extraHostNames = Set(extraHostNames.map { $0.lowercased() })
    }

    /// Why a request is refused; nil when it may go on.
    public enum Refusal: Sendable, Equatable, CustomStringConvertible {
        case badHost(String?)
        case crossOrigin(String)
        case badToken

        public var description: String {
            switch self {
            case .badHost(let host): "refused: Host '\(host ?? "")' is not this node's address"
            case .crossOrigin(let origin): "refused: Origin '\(origin)' is not this node's page"
            case .badToken: "refused: this node's page needs its token (the URL printed at start)"
            }
        }
    }

    /// Checks a plain HTTP request (the page's files): only its Host.
    public func checkPage(host: String?) -> Refusal? {
        hostAllowed(host) ? nil : .badHost(host)
    }

    /// Checks a WebSocket upgrade: Host, Origin and token.
    /// - Parameters:
    ///   - query: the request path's query (after `?`), where the page puts `token=`.
    public func checkSocket(host: String?, origin: String?, query: String?) -> Refusal? {
        if let refusal = checkPage(host: host) { return refusal }
        if let origin, let host, origin.lowercased() != "http://" + host.lowercased() { return .crossOrigin(origin) }
        if let origin, host == nil { return .crossOrigin(origin) }
        guard let token else { return nil }
        return Self.constantTimeEqual(Self.queryValue("token", in: query), token) ? nil : .badToken
    }

    /// True when `host` (a Host header: `name:port`, `[v6]:port`) names this server.
    func hostAllowed(_ host: String?) -> Bool {
        guard let host, let (name, port) = Self.split(host: host), port == self.port else { return false }
        let lower = name.lowercased()
        return lower == "localhost" || Self.isIPLiteral(lower) || extraHostNames.contains(lower)
    }

    /// `name:port` or `[v6]:port` into its parts; nil without a port (browsers always send a non-default one).
    static func split(host: String) -> (String, Int)? {
        guard host.count <= 255, let colon = host.lastIndex(of: ":") else { return nil }
        guard let port = Int(host[host.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        var name = String(host[..<colon])
        if name.hasPrefix("[") {
            guard name.hasSuffix("]"), name.count > 2 else { return nil }
            name = String(name.dropFirst().dropLast())
            return name.contains(":") && name.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) ? (name, port) : nil
        }
        return name.isEmpty || name.contains(":") ? nil : (name, port)
    }

    /// A dotted IPv4 address or an IPv6 one (brackets removed): no DNS name involved.
    static func isIPLiteral(_ name: String) -> Bool {
        if name.contains(":") { return name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && (Int(part).map { $0 <= 255 } ?? false)
        }
    }

    /// The value of `key` in a URL query (`a=1&token=x`), as written (the page sends URL-safe tokens).
    static func queryValue(_ key: String, in query: String?) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == key { return String(parts[1]) }
        }
        return nil
    }

    /// Compares without stopping at the first difference (no timing hint of how much of a guess was right).
    static func constantTimeEqual(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(expected.utf8)
        var difference = a.count ^ b.count
        for index in 0..<b.count { difference |= Int((index < a.count ? a[index] : 0) ^ b[index]) }
        return difference == 0
    }
}
