import EndToEndSupport
import Foundation
import Testing
import ToneEngine

extension JackServerTests {
    /// When JACK renames the client (`twin-01`), `--loopback` still loops the
    /// node onto itself, and a `--connect-*` naming the old name is called out.
    @Suite("run --loopback and a renamed client")
    struct RenamedClientTests {
        @Test("--loopback connects our own out to our own in, whatever JACK named us")
        func loopbackFollowsTheName() throws {
            let server = try startServer()
            defer { server.stop() }
            var settings = nodeSettings(server, client: "twin")
            settings.muted = true
            let first = try Node(settings: settings)
            defer { first.stop() }
            let result = try runCommand(["run", "-s", server.name, "-n", "twin", "--loopback", "--json",
                                         "--duration", "0.5", "--freq", "1000", "--level", "-20"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("client 'twin-01'"))
            #expect(!result.stderr.contains("warning"), "stderr: \(result.stderr)")
            let late = result.stdoutLines.compactMap(parseReport).filter { ($0["time_s"] as? Double ?? 0) > 0.2 }
            #expect(!late.isEmpty)
            for report in late { #expect(abs((report["freq_hz"] as? Double ?? 0) - 1000) < 0.01) }
        }

        @Test("a --connect-* naming the taken name is a warning on stderr", arguments: ["run", "receive", "send"])
        func oldNameIsCalledOut(command: String) throws {
            let server = try startServer()
            defer { server.stop() }
            var settings = nodeSettings(server, client: "twin")
            settings.muted = true
            let first = try Node(settings: settings)
            defer { first.stop() }
            let arguments: [String] = switch command {
            case "run": ["run", "--connect-out", "twin:in", "--duration", "0.3", "--plain"]
            case "receive": ["receive", "--connect-in", "twin:out", "--duration", "0.3"]
            default: ["send", "hi", "--profile", "audible", "--connect-out", "twin:in"]
            }
            let result = try runCommand(arguments + ["-s", server.name, "-n", "twin"])
            let warnings = result.stderrLines.filter { $0.hasPrefix("tonenode: warning: JACK named this client 'twin-01'") }
            #expect(warnings.count == 1, "stderr: \(result.stderr)")
        }
    }
}
