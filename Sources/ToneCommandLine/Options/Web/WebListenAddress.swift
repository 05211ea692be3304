import ArgumentParser

/// `--web [ADDR:]PORT`: where the live page listens. ADDR is an IP address
/// (`[::1]` in brackets for IPv6) or `localhost`; 127.0.0.1 when left out;
/// PORT 0 lets the system pick one.
public struct WebListenAddress: ExpressibleByArgument, Sendable, Equatable, CustomStringConvertible {
    /// An IP literal, without brackets.
    public var host: String
    public var port: Int

    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }

    public init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    /// Parses `[ADDR:]PORT`, or says in one line what is wrong with it.
    public static func parse(_ text: String) throws(ValidationError) -> WebListenAddress {
        let problem = ValidationError("expected [ADDRESS:]PORT, e.g. 8080, 127.0.0.1:8080, 0.0.0.0:8080 "
                                      + "or [::1]:8080 (port 0 picks a free one)")
        var host = "127.0.0.1", portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { throw problem }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
            guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { throw problem }
        } else if let colon = text.firstIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host == "localhost" { host = "127.0.0.1" }
            guard Self.isIPv4(host) else { throw problem }
        }
        guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText), (0...65535).contains(port) else { throw problem }
        return WebListenAddress(host: host, port: port)
    }

    /// True for 127.0.0.0/8 and ::1: only this machine can reach it.
    public var isLoopback: Bool {
        host == "::1" || host == "0:0:0:0:0:0:0:1" || (Self.isIPv4(host) && host.hasPrefix("127."))
    }

    /// The page's address as a browser writes it (`http://127.0.0.1:8080/`, `http://[::1]:8080/`),
    /// for `port` (the one the server got when asked for 0).
    public func url(port: Int) -> String {
        "http://" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)/"
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part).map { $0 <= 255 } == true
        }
    }
}
