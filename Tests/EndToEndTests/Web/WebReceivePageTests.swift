import EndToEndSupport
import Foundation
import Testing

extension JackServerTests.WebPageTests {
    @Test("receive --web: the page lists each message as it arrives, the one the node prints on stdout")
    func receivePage() throws {
        let server = try startServer()
        defer { server.stop() }
        let node = try LiveCommand(["receive", "-s", server.name, "-n", "webrx", "--json", "--web", "0"])
        defer { node.stop() }
        let port = try #require(Self.pagePort(node), "no web: line; stderr: \(node.stderr)")
        let text = "meet at the stage door"
        let sent = try runCommand(["send", "-s", server.name, "-n", "webtx", "--connect-out", "webrx:in", text], timeoutSeconds: 30)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(node.waitUntil(timeoutSeconds: 10) { $0.stdout.contains(text) }, "stdout: \(node.stdout)")
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let shot = Self.artifacts.appendingPathComponent("web-receive.png").path
        let steps = try Self.script("web_browser.py", ["http://127.0.0.1:\(port)/", shot, "message", text, "shot"])
        try #require(steps.count == 2, "steps: \(steps)")
        #expect(steps[0]["timeout"] as? Bool == false, "\(steps[0])")
        #expect((steps[0]["shown"] as? String).map { $0.contains("ultrasonic") && $0.contains(text) } == true, "\(steps[0])")
        #expect(node.isRunning)
    }
}
