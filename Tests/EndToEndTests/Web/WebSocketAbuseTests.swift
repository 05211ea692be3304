import EndToEndSupport
import Foundation
import Testing

extension JackServerTests.WebPageTests {
    /// Counts the node's xrun lines on stderr (`N xrun(s); …`, the latest count).
    static func xruns(_ node: LiveCommand) -> Int {
        node.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard line.contains(" xrun(s); ") else { return nil }
            return Int(line.split(separator: " ").first { Int($0) != nil } ?? "")
        }.last ?? 0
    }

    /// Waits (at most 3 s more than asked) until the node's reports have advanced `seconds` of audio.
    static func audioAdvances(_ node: LiveCommand, seconds: Double) -> Bool {
        func latest() -> Double { node.reports.last?["time_s"] as? Double ?? 0 }
        let start = latest()
        return node.waitUntil(timeoutSeconds: seconds + 3) { _ in latest() >= start + seconds }
    }

    @Test("refused: another Host, another site's Origin, other files; misbehaving sockets closed; 50 tabs killed at once: the node runs on, no xrun")
    func socketsThatMisbehave() throws {
        // Real-time scheduling, as in a studio: an xrun is then the node's (or the server's) lateness,
        // not the scheduler sharing a core among the tests' other processes.
        let server = try startServer(realtime: true)
        defer { server.stop() }
        let node = try LiveCommand(["run", "-s", server.name, "-n", "webabuse", "--json", "--hop", "2048",
                                    "--connect-out", "webabuse:in", "--web", "0"])
        defer { node.stop() }
        let port = try #require(Self.pagePort(node), "no web: line; stderr: \(node.stderr)")
        #expect(Self.reads(node, 1000, after: 0))

        var checks: [String: [String: Any]] = [:]
        for line in try Self.script("web_sockets.py", ["127.0.0.1", "\(port)", "refusals", "abuse"]) {
            checks[line["check"] as? String ?? ""] = line
        }
        func status(_ name: String) -> Int? { checks[name]?["status"] as? Int }
        // A refused upgrade stays plain HTTP, which has no /ws: a 4xx, never 101.
        #expect((400..<500).contains(status("rebinding host") ?? 0), "\(checks)")
        #expect(status("rebinding host page") == 403, "\(checks)")
        #expect((400..<500).contains(status("cross-site origin") ?? 0), "\(checks)")
        #expect(status("other file") == 404, "\(checks)")
        #expect(status("page") == 200, "\(checks)")
        #expect(status("socket") == 101, "\(checks)")
        for name in ["oversized", "binary", "malformed", "flood"] {
            #expect(status(name) == 101, "\(name): \(checks[name] ?? [:])")
            // Closed by the node (a close frame, or the connection ended), not left hanging until the timeout.
            #expect(checks[name]?["close"] != nil && !(checks[name]?["close"] is NSNull), "\(name): \(checks[name] ?? [:])")
        }

        // The same length of time without and with 50 tabs: the tabs add no xrun.
        let quietStart = Self.xruns(node)
        #expect(Self.audioAdvances(node, seconds: 3))
        let loadStart = Self.xruns(node), quietXruns = loadStart - quietStart
        let load = try Self.script("web_sockets.py", ["127.0.0.1", "\(port)", "load", "50", "3"])
        #expect(load.first?["upgraded"] as? Int == 50, "\(load)")
        #expect(load.first?["receiving"] as? Int == 50, "\(load)")
        let afterLoad = node.lineCount
        #expect(Self.reads(node, 1000, after: afterLoad), "the node reports on after the tabs died")
        #expect(Self.xruns(node) - loadStart <= quietXruns, "stderr: \(node.stderr.suffix(2000))")
        // And it still serves: a new socket is welcomed.
        let again = try Self.script("web_sockets.py", ["127.0.0.1", "\(port)", "refusals"])
        #expect(again.contains { $0["check"] as? String == "socket" && $0["status"] as? Int == 101 })
        #expect(node.isRunning)
    }
}
