import Testing
import ToneCommandLine

@Suite("--web [ADDR:]PORT and --web-token")
struct WebOptionsTests {
    @Test(arguments: [("8080", "127.0.0.1", 8080, true), ("0", "127.0.0.1", 0, true),
                      ("127.0.0.1:9000", "127.0.0.1", 9000, true), ("localhost:9000", "127.0.0.1", 9000, true),
                      ("127.9.9.9:1", "127.9.9.9", 1, true), ("0.0.0.0:8080", "0.0.0.0", 8080, false),
                      ("192.168.1.2:80", "192.168.1.2", 80, false), ("[::1]:8080", "::1", 8080, true),
                      ("[::]:8080", "::", 8080, false)])
    func addressesParse(text: String, host: String, port: Int, loopback: Bool) throws {
        let address = try WebListenAddress.parse(text)
        #expect(address.host == host)
        #expect(address.port == port)
        #expect(address.isLoopback == loopback)
    }

    @Test(arguments: ["", "x", "-1", "65536", "80a", "host.example:80", "1.2.3:80", "1.2.3.4:", "[::1]8080", "[zz]:80",
                      "::1:8080", "1.2.3.256:80", "127.0.0.1:+80"])
    func badAddressesSayWhatIsExpected(text: String) {
        #expect(throws: (any Error).self) { try WebListenAddress.parse(text) }
        #expect(WebListenAddress(argument: text) == nil)
    }

    @Test func theURLNamesThePortTheServerGot() {
        #expect(WebListenAddress(port: 0).url(port: 41234) == "http://127.0.0.1:41234/")
        #expect(WebOptions.pageURL(WebListenAddress(host: "::1", port: 0), port: 5, token: "t") == "http://[::1]:5/#token=t")
    }

    @Test func offLoopbackATokenIsMadeUpUnlessGiven() throws {
        let local = try WebOptions.parse(["--web", "0"])
        #expect(local.token().token == nil)
        let remote = try WebOptions.parse(["--web", "0.0.0.0:0"])
        let (first, generated) = remote.token()
        let second = remote.token().token
        #expect(generated)
        #expect(first?.count == 32)
        #expect(first != second)
        let given = try WebOptions.parse(["--web", "0.0.0.0:0", "--web-token", "my-secret-token-1234"])
        #expect(given.token().token == "my-secret-token-1234")
        #expect(given.token().generated == false)
    }

    @Test(arguments: [["--web-token", "abcdefghijklmnop"], ["--web", "0", "--web-token", "short"],
                      ["--web", "0", "--web-token", "has space in it and is long"], ["--web", "0", "--web-token", "abcdefghijklmnop#"]])
    func badTokensAreRefused(arguments: [String]) {
        #expect(throws: (any Error).self) { try WebOptions.parse(arguments) }
    }
}
