import EndToEndSupport
import Foundation
import Testing

extension JackServerTests.WebPageTests {
    @Test("--web-token: a socket without it or with a wrong one is refused; the page with #token= in its URL works")
    func token() throws {
        let server = try startServer()
        defer { server.stop() }
        let secret = "k3y-\(UInt64.random(in: 0...UInt64.max))-studio"
        let node = try LiveCommand(["run", "-s", server.name, "-n", "webtok", "--json", "--hop", "2048",
                                    "--connect-out", "webtok:in", "--web", "0", "--web-token", secret])
        defer { node.stop() }
        let port = try #require(Self.pagePort(node), "no web: line; stderr: \(node.stderr)")
        #expect(node.stderr.contains("/#token=\(secret)"), "the URL printed carries the token: \(node.stderr)")
        var checks: [String: Int] = [:]
        for line in try Self.script("web_sockets.py", ["127.0.0.1", "\(port)", "token", secret]) {
            checks[line["check"] as? String ?? ""] = line["status"] as? Int
        }
        #expect((400..<500).contains(checks["no token"] ?? 0), "\(checks)")
        #expect((400..<500).contains(checks["wrong token"] ?? 0), "\(checks)")
        #expect(checks["right token"] == 101, "\(checks)")
        // In the browser: without the token the page says it is refused; with it, it shows the readings.
        let shot = NSTemporaryDirectory() + "web-token-\(getpid()).png"
        let without = try Self.script("web_browser.py", ["http://127.0.0.1:\(port)/", shot, "read"])
        #expect(without.first?["timeout"] as? Bool == true, "\(without)")
        #expect((without.first?["connection"] as? String)?.hasPrefix("refused") == true, "\(without)")
        let with = try Self.script("web_browser.py", ["http://127.0.0.1:\(port)/#token=\(secret)", shot, "read"])
        #expect(with.first?["timeout"] as? Bool == false, "\(with)")
        #expect(abs((Double(with.first?["shown"] as? String ?? "") ?? 0) - 1000) < 0.01, "\(with)")
        #expect(node.isRunning)
    }
}
