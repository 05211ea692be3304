import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// `run --web` in a real browser (Debian's chromium, driven by selenium:
    /// web_browser.py) and against raw sockets (web_sockets.py).
    @Suite("The live page (--web) in a real browser")
    struct WebPageTests {
        static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        /// Where the screenshot is kept (`.build/test-artifacts/`; docs/img/web-run.png is a copy).
        static let artifacts = folder.appendingPathComponent("../../../.build/test-artifacts").standardizedFileURL

        /// The port the node printed (`tonenode: web: http://127.0.0.1:PORT/`), waiting at most 15 s for it.
        static func pagePort(_ node: LiveCommand) -> Int? {
            var port: Int?
            _ = node.waitUntil(timeoutSeconds: 15) { node in
                let marker = "web: http://127.0.0.1:"
                let line = node.stderr.split(separator: "\n").first { $0.contains(marker) }
                if let line, let range = line.range(of: marker) { port = Int(line[range.upperBound...].prefix { $0.isNumber }) }
                return port != nil
            }
            return port
        }

        /// Runs one of this folder's scripts to its end (each bounds its own waits); its JSON lines.
        static func script(_ name: String, _ arguments: [String], timeoutSeconds: Double = 90) throws -> [[String: Any]] {
            let run = try LiveCommand(["python3", folder.appendingPathComponent(name).path] + arguments, executable: "/usr/bin/env")
            _ = run.exitStatus(timeoutSeconds: timeoutSeconds)
            let lines = run.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            if lines.isEmpty { Issue.record("\(name) said nothing; stderr: \(run.stderr.suffix(2000))") }
            return lines
        }

        /// The node's reports whose frequency is within `tolerance` of `hz`, after line `index`, waiting up to 10 s for two.
        static func reads(_ node: LiveCommand, _ hz: Double, after index: Int, tolerance: Double = 0.01) -> Bool {
            node.waitUntil(timeoutSeconds: 10) { node in
                node.lines(from: index).compactMap(parseReport).filter {
                    abs(($0["freq_hz"] as? Double ?? 0) - hz) < tolerance
                }.count >= 2
            }
        }

        @Test("the page shows the node's own reading, sets its frequency, says why a bad value is refused")
        func pageInABrowser() throws {
            let server = try startServer()
            defer { server.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "webnode", "--json", "--hop", "2048",
                                        "--freq", "997", "--connect-out", "webnode:in", "--web", "0"])
            defer { node.stop() }
            let port = try #require(Self.pagePort(node), "no web: line; stderr: \(node.stderr)")
            #expect(Self.reads(node, 997, after: 0))
            // A second node hears the first one's output: what the page changed is what plays.
            let listener = try LiveCommand(["run", "-s", server.name, "-n", "ear", "--json", "--hop", "2048", "--mute",
                                            "--connect-in", "webnode:out"])
            defer { listener.stop() }
            #expect(Self.reads(listener, 997, after: 0))
            try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
            let shot = Self.artifacts.appendingPathComponent("web-run.png").path
            let mark = node.lineCount, listenerMark = listener.lineCount
            let steps = try Self.script("web_browser.py", ["http://127.0.0.1:\(port)/", shot,
                                                            "read", "set", "1234.5", "bad", "freq 30000", "await", "1234.5", "shot"])
            try #require(steps.count == 5, "steps: \(steps)")

            // 1. What the page shows is the node's JSON line of the same time, to the digits shown.
            let shown = try #require(steps[0]["shown"] as? String, "\(steps[0])")
            let timeS = try #require(steps[0]["time_s"] as? Double)
            let report = try #require(node.reports.first { abs(($0["time_s"] as? Double ?? -1) - timeS) < 1e-9 },
                                      "no report at \(timeS) s")
            let decimals = shown.split(separator: ".").last.map(\.count) ?? 0
            let json = try #require(report["freq_hz"] as? Double)
            #expect(decimals >= 1)
            #expect(abs(try #require(Double(shown)) - json) <= 0.5 * pow(10, -Double(decimals)) + 1e-9,
                    "page \(shown), JSON \(json)")
            #expect(abs(json - 997) < 0.01)

            // 2. Set on the page: the node plays it (its own input and the second node hear 1234.5 Hz).
            #expect((steps[1]["answer"] as? String)?.hasPrefix("✓ freq 1234.5") == true, "\(steps[1])")
            #expect(Self.reads(node, 1234.5, after: mark))
            #expect(Self.reads(listener, 1234.5, after: listenerMark))

            // 3. A bad value: the page says why (the same words as stdin's), nothing changes.
            let refused = try #require(steps[2]["answer"] as? String, "\(steps[2])")
            #expect(refused.hasPrefix("✗ ") && refused.contains("Nyquist"), "\(refused)")
            #expect(Self.reads(node, 1234.5, after: node.lineCount))
            #expect(steps[3]["timeout"] as? Bool == false, "the page never showed 1234.5 Hz: \(steps[3])")
            #expect(FileManager.default.fileExists(atPath: shot))
            #expect(node.isRunning)
        }
    }
}
