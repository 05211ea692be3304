import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

extension JackServerTests {
    /// `send --profile cable --connect-in RX:out` ↔ `receive --profile cable -o`: a session through a real private jackd.
    @Suite("The cable session live through JACK")
    struct CableSessionLinkTests {
        struct Transfer {
            let bytes: [UInt8]
            let input: String
            let output: String
            let receiver: LiveCommand

            /// The SHA-256 of the input, as sha256sum says it.
            func digest() throws -> String {
                try runCommand([input], executable: "/usr/bin/sha256sum").stdout.split(separator: " ").first.map(String.init) ?? ""
            }
        }

        /// Runs `body` with a private jackd (48 kHz, 1024 frames) and a transfer waiting there; cleans up after.
        static func withTransfer(count: Int, seed: UInt64, name: String,
                                 _ body: (PrivateJackServer, Transfer) throws -> Void) throws {
            let server = try startServer(periodFrames: 1024, sampleRateHz: 48_000)
            defer { server.stop() }
            let transfer = try prepare(server, count: count, seed: seed, name: name)
            defer {
                transfer.receiver.stop()
                for path in [transfer.input, transfer.output] { try? FileManager.default.removeItem(atPath: path) }
            }
            try body(server, transfer)
        }

        /// A file of `count` random bytes and a receiver `rx` waiting for it with -o.
        static func prepare(_ server: PrivateJackServer, count: Int, seed: UInt64, name: String) throws -> Transfer {
            let input = ModemCommandLineTests.temporaryPath("\(name)-in.bin")
            let output = ModemCommandLineTests.temporaryPath("\(name)-out.bin")
            let bytes = CableLinkTests.randomBytes(count, seed: seed)
            #expect(FileManager.default.createFile(atPath: input, contents: Data(bytes)))
            let receiver = try LiveCommand(["receive", "-s", server.name, "-n", "rx", "--profile", "cable", "-o", output,
                                            "--duration", "90"])
            try waitForPort("rx:out", server: server.name)
            return Transfer(bytes: bytes, input: input, output: output, receiver: receiver)
        }

        static func sendArguments(_ server: PrivateJackServer, _ transfer: Transfer) -> [String] {
            ["send", "-s", server.name, "-n", "tx", "--connect-out", "rx:in", "--connect-in", "rx:out", "--profile", "cable",
             "--file", transfer.input]
        }

        /// A sender started, once the receiver has the session's first segment.
        static func sendUntilFirstSegment(_ server: PrivateJackServer, _ transfer: Transfer) throws -> LiveCommand {
            let sender = try LiveCommand(sendArguments(server, transfer))
            #expect(transfer.receiver.waitUntil(timeoutSeconds: 30) { $0.stderr.contains("cable session: received ") },
                    "\(transfer.receiver.stderr)")
            return sender
        }

        static func digest(in stderr: String) -> String? {
            stderr.firstMatch(of: /SHA-256 ([0-9a-f]{64})/).map { String($0.1) }
        }

        @Test("a whole file through a session, byte for byte; both exit 0 and name the same SHA-256, sha256sum's")
        func wholeFile() throws {
            try Self.withTransfer(count: 1_048_576, seed: 33, name: "session") { server, transfer in
                let started = Date()
                let sent = try runCommand(Self.sendArguments(server, transfer), timeoutSeconds: 120)
                let seconds = Date().timeIntervalSince(started)
                #expect(sent.status == 0, "send: \(sent.stderr)")
                let received = transfer.receiver.exitStatus(timeoutSeconds: 20)
                #expect(received?.status == 0, "receive: \(transfer.receiver.stderr)")
                #expect(FileManager.default.contents(atPath: transfer.output).map(Array.init) == transfer.bytes)
                let expected = try transfer.digest()
                #expect(Self.digest(in: sent.stderr) == expected, "\(sent.stderr)")
                #expect(Self.digest(in: transfer.receiver.stderr) == expected, "\(transfer.receiver.stderr)")
                let line = sent.stderr.split(separator: "\n").last.map(String.init) ?? ""
                #expect(line.hasPrefix("tonenode: cable session: 1048576 bytes confirmed in "), "\(sent.stderr)")
                report(String(format: "cable session, 48 kHz, 1024 frames/period: 1048576 bytes, send %.2f s from process start "
                              + "to exit (%.1f kbit/s); ", seconds, 8 * 1_048_576 / seconds / 1000) + line)
            }
        }

        @Test("the forward path cut for 1 s in the middle: a resend, the file still exact")
        func dropout() throws {
            try Self.withTransfer(count: 600_000, seed: 34, name: "dropout") { server, transfer in
                let sender = try Self.sendUntilFirstSegment(server, transfer)
                defer { sender.stop() }
                // Once the first segment is in, cut the forward path for a second.
                let environment = ["JACK_DEFAULT_SERVER": server.name]
                #expect(try runCommand(["tx:out", "rx:in"], executable: "/usr/bin/jack_disconnect", environment: environment).status == 0)
                Thread.sleep(forTimeInterval: 1)
                #expect(try runCommand(["tx:out", "rx:in"], executable: "/usr/bin/jack_connect", environment: environment).status == 0)
                let sent = sender.exitStatus(timeoutSeconds: 90)
                #expect(sent?.status == 0, "send: \(sender.stderr)")
                #expect(transfer.receiver.exitStatus(timeoutSeconds: 20)?.status == 0, "receive: \(transfer.receiver.stderr)")
                #expect(FileManager.default.contents(atPath: transfer.output).map(Array.init) == transfer.bytes)
                let resent = sender.stderr.firstMatch(of: /confirmed in .*, (\d+) segment\(s\) resent/).flatMap { Int($0.1) } ?? 0
                #expect(resent >= 1, "\(sender.stderr)")
                #expect(Self.digest(in: sender.stderr) == (try transfer.digest()))
            }
        }

        @Test("a sender killed in the middle of a session: receive -o ends 10 s later, one line, exit 1, no file")
        func senderKilled() throws {
            try Self.withTransfer(count: 600_000, seed: 38, name: "killed") { server, transfer in
                let sender = try Self.sendUntilFirstSegment(server, transfer)
                defer { sender.stop() }
                sender.signal(SIGKILL)
                let status = transfer.receiver.exitStatus(timeoutSeconds: 30)
                #expect(status?.status == 1, "\(transfer.receiver.stderr)")
                let lines = transfer.receiver.stderr.split(separator: "\n").filter { $0.contains("fell silent") }
                #expect(lines.count == 1 && lines[0].hasPrefix("tonenode: cable session: the sender fell silent with "),
                        "\(transfer.receiver.stderr)")
                #expect(FileManager.default.contents(atPath: transfer.output) == nil)
            }
        }

        @Test("a return path on which no answer comes: one timeout line, exit 1, within the timeout")
        func noAnswer() throws {
            try Self.withTransfer(count: 10_000, seed: 35, name: "noanswer") { server, transfer in
                // `in` hears the dummy backend's silent capture: a path connected, on which nothing answers.
                let started = Date()
                let sent = try runCommand(["send", "-s", server.name, "-n", "tx", "--connect-out", "rx:in",
                                           "--connect-in", "system:capture_1", "--profile", "cable", "--timeout", "8",
                                           "--file", transfer.input], timeoutSeconds: 40)
                let seconds = Date().timeIntervalSince(started)
                #expect(sent.status == 1, "\(sent.stderr)")
                #expect(seconds < 20)
                let errors = sent.stderrLines.filter { $0.contains("error") }
                #expect(errors == ["tonenode: error: no answer from the receiver within 8 s (2 tries); is a return path connected?"],
                        "\(sent.stderr)")
                #expect(FileManager.default.contents(atPath: transfer.output) == nil)
            }
        }

        @Test("both ways at once on one pair of paths: send -o on each side, each file exact, all exit 0")
        func bothWays() throws {
            let server = try startServer(periodFrames: 1024, sampleRateHz: 48_000)
            defer { server.stop() }
            let paths = ["a", "b", "a2", "b2"].map { ModemCommandLineTests.temporaryPath("duplex-\($0).bin") }
            defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
            let files = [CableLinkTests.randomBytes(300_000, seed: 36), CableLinkTests.randomBytes(250_000, seed: 37)]
            for (path, bytes) in zip(paths, files) { #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes))) }
            // The first waits for the peer to connect both ports; the second connects both ways.
            let first = try LiveCommand(["send", "-s", server.name, "-n", "pa", "--profile", "cable", "--file", paths[0],
                                         "-o", paths[3]])
            defer { first.stop() }
            try waitForPort("pa:in", server: server.name)
            let second = try runCommand(["send", "-s", server.name, "-n", "pb", "--profile", "cable", "--file", paths[1],
                                         "-o", paths[2], "--connect-out", "pa:in", "--connect-in", "pa:out"], timeoutSeconds: 90)
            #expect(second.status == 0, "pb: \(second.stderr)")
            #expect(first.exitStatus(timeoutSeconds: 40)?.status == 0, "pa: \(first.stderr)")
            #expect(FileManager.default.contents(atPath: paths[2]).map(Array.init) == files[0])
            #expect(FileManager.default.contents(atPath: paths[3]).map(Array.init) == files[1])
            for stderr in [first.stderr, second.stderr] {
                #expect(stderr.contains("confirmed in "), "\(stderr)")
                #expect(stderr.contains("sent back; wrote "), "\(stderr)")
            }
            let lines = (first.stderr + second.stderr).split(separator: "\n").filter { $0.contains("confirmed in ") }
            report("cable session both ways, 48 kHz, 1024 frames/period: " + lines.joined(separator: " | "))
        }
    }
}
