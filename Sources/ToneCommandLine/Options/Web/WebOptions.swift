import ArgumentParser

/// `--web [ADDR:]PORT` and `--web-token`: a live page served by the command
/// itself (docs/web.md). Off loopback a token is required: the one given,
/// or one made up at start and printed once.
public struct WebOptions: ParsableArguments {
    public init() {}

    @Option(name: .customLong("web"), help: ArgumentHelp(
        "Serve a live page of this command on [ADDRESS:]PORT (127.0.0.1 unless an address is given; port 0 picks one; "
            + "the start-up line names the URL). Any other address than loopback needs a token (--web-token, or one printed at start).",
        valueName: "[address:]port"), transform: { try WebListenAddress.parse($0) })
    public var web: WebListenAddress?

    @Option(name: .customLong("web-token"), help: ArgumentHelp(
        "The secret the page's URL must carry (#token=…), 16 to 128 of A-Z a-z 0-9 _ -. Default: none on loopback; "
            + "elsewhere one made up at start.", valueName: "token"))
    public var webToken: String?

    public func validate() throws {
        if let webToken {
            guard web != nil else { throw ValidationError("--web-token needs --web") }
            guard Self.isValidToken(webToken) else {
                throw ValidationError("--web-token must be 16 to 128 characters of A-Z a-z 0-9 _ - (it goes in a URL)")
            }
        }
    }

    /// The token the page needs: the one given, else off loopback one made
    /// up now (`generated` true: print it once), else none.
    public func token() -> (token: String?, generated: Bool) {
        if let webToken { return (webToken, false) }
        guard let web, !web.isLoopback else { return (nil, false) }
        return (Self.makeToken(), true)
    }

    /// The page's URL as printed at start: with the token in its fragment (never sent in a request line).
    public static func pageURL(_ address: WebListenAddress, port: Int, token: String?) -> String {
        address.url(port: port) + (token.map { "#token=" + $0 } ?? "")
    }

    static func isValidToken(_ token: String) -> Bool {
        (16...128).contains(token.count) && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }

    /// 32 characters from 62 (190 bits), from the system's random source.
    static func makeToken() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
