import Testing
@testable import ToneWeb

@Suite("WebAccess: Host, Origin and token")
struct WebAccessTests {
    let open = WebAccess(port: 8080, token: nil, extraHostNames: ["Studio"])
    let locked = WebAccess(port: 8080, token: "abcdefghijklmnop1234")

    @Test(arguments: ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080", "192.168.1.20:8080", "studio:8080"])
    func hostsThatNameThisServerPass(host: String) {
        #expect(open.checkPage(host: host) == nil)
    }

    @Test(arguments: [nil, "", "127.0.0.1", "127.0.0.1:8081", "evil.example:8080", "127.0.0.1.evil.example:8080",
                      "localhost.evil:8080", "[::1:8080", "256.1.1.1:8080", "a:b:8080", "127.0.0.1:0", ":8080"])
    func rebindingAndWrongPortsAreRefused(host: String?) {
        #expect(open.checkPage(host: host) == .badHost(host))
    }

    @Test func aSocketFromTheServedPagePasses() {
        #expect(open.checkSocket(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", query: nil) == nil)
        // A client that is not a browser sends no Origin.
        #expect(open.checkSocket(host: "localhost:8080", origin: nil, query: nil) == nil)
    }

    @Test(arguments: ["http://evil.example", "http://127.0.0.1:8081", "https://127.0.0.1:8080", "null", "http://localhost:8080"])
    func aSocketFromAnotherPageIsRefused(origin: String) {
        #expect(open.checkSocket(host: "127.0.0.1:8080", origin: origin, query: nil) == .crossOrigin(origin))
    }

    @Test func theTokenIsNeededWhenThereIsOne() {
        let host = "10.0.0.5:8080", origin = "http://10.0.0.5:8080"
        #expect(locked.checkSocket(host: host, origin: origin, query: "token=abcdefghijklmnop1234") == nil)
        #expect(locked.checkSocket(host: host, origin: origin, query: "x=1&token=abcdefghijklmnop1234") == nil)
        #expect(locked.checkSocket(host: host, origin: origin, query: nil) == .badToken)
        #expect(locked.checkSocket(host: host, origin: origin, query: "token=") == .badToken)
        #expect(locked.checkSocket(host: host, origin: origin, query: "token=abcdefghijklmnop123") == .badToken)
        #expect(locked.checkSocket(host: host, origin: origin, query: "token=abcdefghijklmnop12345") == .badToken)
        #expect(locked.checkSocket(host: host, origin: origin, query: "token=Abcdefghijklmnop1234") == .badToken)
        // Host and Origin are checked first: a right token from a wrong place is still refused.
        #expect(locked.checkSocket(host: "evil.example:8080", origin: nil, query: "token=abcdefghijklmnop1234")
                == .badHost("evil.example:8080"))
    }
}
