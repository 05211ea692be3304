import EndToEndSupport
import Foundation
import Testing
import ToneCore
import ToneEngine

extension JackServerTests {
    /// Each command registers only the ports it uses, and refuses the options
    /// that would need one it does not have.
    @Suite("each command registers only the ports it uses")
    struct CommandPortsTests {
        /// Port names of `client` on `server` (jack_lsp).
        static func ports(of client: String, server: String) throws -> [String] {
            try runCommand([], executable: "/usr/bin/jack_lsp", environment: ["JACK_DEFAULT_SERVER": server])
                .stdoutLines.filter { $0.hasPrefix(client + ":") }.sorted()
        }

        @Test("receive: only in")
        func receiveHasNoOut() throws {
            let server = try startServer()
            defer { server.stop() }
            let receiver = try LiveCommand(["receive", "-s", server.name, "-n", "rx"])
            defer { receiver.stop() }
            try waitForPort("rx:in", server: server.name)
            #expect(try Self.ports(of: "rx", server: server.name) == ["rx:in"])
        }

        @Test("receive --profile cable: in, and out for a session's answers")
        func cableReceiveHasOut() throws {
            let server = try startServer()
            defer { server.stop() }
            let receiver = try LiveCommand(["receive", "-s", server.name, "-n", "rx", "--profile", "cable"])
            defer { receiver.stop() }
            try waitForPort("rx:out", server: server.name)
            #expect(try Self.ports(of: "rx", server: server.name) == ["rx:in", "rx:out"])
        }

        @Test("send's node: only out, and the message still goes out through it")
        func sendHasOnlyOut() throws {
            let server = try startServer()
            defer { server.stop() }
            var settings = nodeSettings(server, client: "tx")
            settings.muted = true
            settings.analyzesTones = false
            settings.ports = [.audioOut]
            let node = try Node(settings: settings)
            defer { node.stop() }
            #expect(try Self.ports(of: "tx", server: server.name) == ["tx:out"])
            #expect(node.inputPortNames.isEmpty && node.midiInputPortName.isEmpty)
            let receiver = try LiveCommand(["receive", "-s", server.name, "-n", "rx", "--count", "1"])
            try waitForPort("rx:in", server: server.name)
            let sent = try runCommand(["send", "through out only", "--profile", "audible", "-s", server.name,
                                       "-n", "tx2", "--connect-out", "rx:in"], timeoutSeconds: 20)
            #expect(sent.status == 0, "\(sent.stderr)")
            #expect(receiver.exitStatus(timeoutSeconds: 10)?.status == 0, "\(receiver.stderr)")
            #expect(receiver.stdout.contains("through out only"))
        }

        // send has an `in` and receive an `out` with --profile cable (a session's return path): both list both.
        @Test("--help lists only the connection options a command can use",
              arguments: [("send", ["--connect-out", "--connect-in"], [String]()),
                          ("receive", ["--connect-in", "--connect-out"], [String]()),
                          ("run", ["--connect-in", "--connect-out"], [String]()),
                          ("measure", ["--connect-in", "--connect-out"], [String]())])
        func helpListsOnlyApplicable(command: String, listed: [String], unlisted: [String]) throws {
            let help = try runCommand([command, "--help"])
            #expect(help.status == 0)
            for option in listed { #expect(help.stdout.contains(option), "\(command) --help lacks \(option)") }
            for option in unlisted { #expect(!help.stdout.contains(option), "\(command) --help lists \(option)") }
            for option in ["--name", "--server", "--no-metadata"] { #expect(help.stdout.contains(option)) }
        }

        @Test("options that need a port the command lacks are refused, exit 64",
              arguments: [(["send", "x", "--connect-in", "a:b"], "--connect-in does not apply: this command has no `in` port"),
                          (["receive", "--connect-out", "a:b"], "--connect-out does not apply: this command has no `out` port")])
        func refused(arguments: [String], line: String) throws {
            let result = try runCommand(arguments, environment: ["JACK_DEFAULT_SERVER": "tn-none-\(getpid())"])
            #expect(result.status == 64)
            #expect(result.stderrLines == ["tonenode: error: " + line])
        }
    }
}
