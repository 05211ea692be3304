import EndToEndSupport
import Foundation
import Testing

extension JackServerTests.MessageLinkTests {
        /// A `tonenode receive --json` listening as client `name`; waits for its port.
        static func receiver(_ server: String, name: String = "rx", extra: [String] = []) throws -> LiveCommand {
            let receiver = try LiveCommand(["receive", "-s", server, "-n", name, "--json"] + extra)
            try waitForPort("\(name):in", server: server)
            return receiver
        }

        static func send(_ server: String, _ arguments: [String], to port: String = "rx:in") throws -> CommandResult {
            try runCommand(["send", "-s", server, "-n", "tx", "--connect-out", port] + arguments, timeoutSeconds: 30)
        }

        /// The JSON objects on stdout that are messages (have `base64` or `incomplete`).
        static func messages(_ command: LiveCommand) -> [[String: Any]] {
            command.reports.filter { $0["base64"] != nil || $0["incomplete"] != nil }
        }
}
