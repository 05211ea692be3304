import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

extension JackServerTests {
    /// Issue 32 item 5 live: `receive --profile cable` through a private jackd
    /// when the sender dies, the receiver joins late, the profile is wrong or
    /// two senders share its input. Never a wrong byte; each said in one line.
    @Suite("The cable profile live: bad input")
    struct CableBadLinkTests {
        /// `count` seeded random bytes in a temporary file; its path.
        static func inputFile(_ count: Int, seed: UInt64) -> (path: String, bytes: [UInt8]) {
            let path = ModemCommandLineTests.temporaryPath("cable-bad-\(seed).bin")
            let bytes = CableLinkTests.randomBytes(count, seed: seed)
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            return (path, bytes)
        }

        /// A private jackd (48 kHz, 1024 frames/period), a file of seeded bytes to send and the path `receive -o` writes.
        struct Transfer {
            let server: PrivateJackServer
            let input: (path: String, bytes: [UInt8])
            let output = ModemCommandLineTests.temporaryPath("cable-bad.out")

            init(bytes: Int, seed: UInt64) throws {
                server = try startServer(periodFrames: 1024, sampleRateHz: 48_000)
                input = CableBadLinkTests.inputFile(bytes, seed: seed)
            }

            /// What `receive -o` wrote; nil: nothing.
            var written: [UInt8]? { FileManager.default.contents(atPath: output).map(Array.init) }

            func cleanUp() {
                for path in [input.path, output] { try? FileManager.default.removeItem(atPath: path) }
                server.stop()
            }
        }

        static func receiver(_ server: PrivateJackServer, name: String, _ extra: [String]) throws -> LiveCommand {
            let receiver = try LiveCommand(["receive", "-s", server.name, "-n", name, "--profile", "cable"] + extra)
            try waitForPort("\(name):in", server: server.name)
            return receiver
        }

        static func sender(_ server: PrivateJackServer, name: String, to port: String, _ extra: [String]) throws -> LiveCommand {
            try LiveCommand(["send", "-s", server.name, "-n", name, "--connect-out", port] + extra)
        }

        @Test("a sender killed (SIGKILL) after its first segment: receive -o says the incomplete transfer in one line, exits 1 about 10 s after the signal stops (not at --duration), writes nothing")
        func senderKilled() throws {
            let transfer = try Transfer(bytes: 300_000, seed: 51)
            defer { transfer.cleanUp() }
            let (server, input, output) = (transfer.server, transfer.input, transfer.output)
            let receiver = try Self.receiver(server, name: "rx", ["-o", output, "--duration", "120"])
            defer { receiver.stop() }
            let sender = try Self.sender(server, name: "tx", to: "rx:in", ["--profile", "cable", "--file", input.path])
            defer { sender.stop() }
            // The first segment in (or lost to an xrun: then the loss is what the line says).
            let heard = receiver.waitUntil(timeoutSeconds: 20) { $0.stderr.contains("received ") || $0.stderr.contains("lost so far") }
            #expect(heard, "receive: \(receiver.stderr)\nsend: \(sender.stderr)")
            sender.signal(SIGKILL)
            let killed = Date()
            let status = receiver.exitStatus(timeoutSeconds: 40)
            let waited = Date().timeIntervalSince(killed)
            #expect(status?.status == 1, "receive: \(receiver.stderr)")
            // Idle bound 10 s, plus the cut segment's four silent frames and the period: far below --duration 120.
            #expect(waited < 20, "receive ended \(waited) s after the kill")
            #expect(waited >= 9, "receive ended \(waited) s after the kill: before the idle bound")
            #expect(transfer.written == nil, "a file was written")
            let incomplete = receiver.stderr.split(separator: "\n").filter { $0.contains("incomplete:") || $0.contains("no segment arrived intact") }
            #expect(incomplete.count == 1, "receive: \(receiver.stderr)")
            #expect(incomplete.first?.contains("of 300000 bytes") == true || incomplete.first?.contains("no segment") == true,
                    "receive: \(receiver.stderr)")
            report(String(format: "cable live: sender killed after its first segment; receive ended %.1f s later, exit 1", waited))
        }

        @Test("a receiver started halfway through a transfer: it says the start it never heard in one line, writes nothing, exit 1")
        func startedLate() throws {
            let transfer = try Transfer(bytes: 300_000, seed: 52)
            defer { transfer.cleanUp() }
            let (server, input, output) = (transfer.server, transfer.input, transfer.output)
            // send needs someone connected: a tone-profile listener hears nothing of it.
            let sink = try LiveCommand(["receive", "-s", server.name, "-n", "sink", "--profile", "ultrasonic", "--duration", "60"])
            defer { sink.stop() }
            try waitForPort("sink:in", server: server.name)
            let sender = try Self.sender(server, name: "tx", to: "sink:in", ["--profile", "cable", "--file", input.path])
            defer { sender.stop() }
            try waitForPort("tx:out", server: server.name)
            Thread.sleep(forTimeInterval: 4)    // into the second of three segments (about 2.9 s each)
            let receiver = try Self.receiver(server, name: "rx", ["-o", output, "--connect-in", "tx:out", "--duration", "60"])
            defer { receiver.stop() }
            let status = receiver.exitStatus(timeoutSeconds: 40)
            #expect(status?.status == 1, "receive: \(receiver.stderr)")
            #expect(transfer.written == nil, "a file was written")
            let lines = receiver.stderr.split(separator: "\n").filter { $0.contains("incomplete:") }
            #expect(lines.count == 1, "receive: \(receiver.stderr)")
            #expect(lines.first?.contains("were never heard: a receiver started late?") == true, "receive: \(receiver.stderr)")
            #expect(sender.exitStatus(timeoutSeconds: 20)?.status == 0, "send: \(sender.stderr)")
        }

        @Test("wrong profiles: receive --profile cable hearing an ultrasonic sender says it found no cable transmission; receive --profile ultrasonic hearing a cable sender prints nothing; both exit 1")
        func wrongProfiles() throws {
            let server = try startServer(periodFrames: 1024, sampleRateHz: 48_000)
            defer { server.stop() }
            let cable = try Self.receiver(server, name: "rxc", ["--duration", "5"])
            defer { cable.stop() }
            let sent = try runCommand(["send", "-s", server.name, "-n", "txu", "--connect-out", "rxc:in", "--profile", "ultrasonic",
                                       "meet at the stage door"], timeoutSeconds: 20)
            #expect(sent.status == 0, "send: \(sent.stderr)")
            #expect(cable.exitStatus(timeoutSeconds: 20)?.status == 1, "receive: \(cable.stderr)")
            #expect(cable.stdout.isEmpty)
            #expect(cable.stderr.contains("no cable transmission found"), "receive: \(cable.stderr)")

            let input = Self.inputFile(3_000, seed: 53)
            defer { try? FileManager.default.removeItem(atPath: input.path) }
            let tones = try LiveCommand(["receive", "-s", server.name, "-n", "rxu", "--profile", "ultrasonic", "--duration", "5"])
            defer { tones.stop() }
            try waitForPort("rxu:in", server: server.name)
            let sentCable = try runCommand(["send", "-s", server.name, "-n", "txc", "--connect-out", "rxu:in", "--profile", "cable",
                                            "--file", input.path], timeoutSeconds: 20)
            #expect(sentCable.status == 0, "send: \(sentCable.stderr)")
            #expect(tones.exitStatus(timeoutSeconds: 20)?.status == 1, "receive: \(tones.stderr)")
            #expect(tones.stdout.isEmpty, "receive printed: \(tones.stdout)")
        }

        @Test("two senders at once into one input: never a wrong byte, what was lost said, exit status honest; one after the other: both files arrive (--count 2)")
        func twoSenders() throws {
            let transfer = try Transfer(bytes: 200_000, seed: 54)
            defer { transfer.cleanUp() }
            let (server, one) = (transfer.server, transfer.input)
            let two = Self.inputFile(200_000, seed: 55)
            defer { try? FileManager.default.removeItem(atPath: two.path) }
            let receiver = try Self.receiver(server, name: "rx", ["-o", transfer.output, "--duration", "30"])
            defer { receiver.stop() }
            let senders = try [one, two].enumerated().map { index, file in
                try Self.sender(server, name: "tx\(index)", to: "rx:in", ["--profile", "cable", "--file", file.path])
            }
            defer { senders.forEach { $0.stop() } }
            let status = receiver.exitStatus(timeoutSeconds: 45)
            let written = transfer.written
            #expect(written == nil || written == one.bytes || written == two.bytes, "a file neither sender sent was written")
            #expect(status?.status == (written == nil ? 1 : 0), "receive: \(receiver.stderr)")
            if written == nil {
                #expect(receiver.stderr.contains("lost so far") || receiver.stderr.contains("another transfer"), "receive: \(receiver.stderr)")
                #expect(receiver.stderr.contains("incomplete:") || receiver.stderr.contains("no segment arrived intact"),
                        "receive: \(receiver.stderr)")
            }
            report("cable live, two senders at once: " + (written == nil ? "nothing written, exit 1" : "one whole file written, exit 0"))

            let small = [Self.inputFile(5_000, seed: 56), Self.inputFile(7_000, seed: 57)]
            defer { for file in small { try? FileManager.default.removeItem(atPath: file.path) } }
            let both = try Self.receiver(server, name: "rx2", ["--count", "2", "--json", "--duration", "30"])
            defer { both.stop() }
            for (index, file) in small.enumerated() {
                let sent = try runCommand(["send", "-s", server.name, "-n", "txs\(index)", "--connect-out", "rx2:in", "--profile", "cable",
                                           "--file", file.path], timeoutSeconds: 20)
                #expect(sent.status == 0, "send: \(sent.stderr)")
            }
            #expect(both.exitStatus(timeoutSeconds: 20)?.status == 0, "receive: \(both.stderr)")
            let delivered = both.stdout.split(separator: "\n").compactMap { line -> [UInt8]? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let base64 = object["base64"] as? String, let data = Data(base64Encoded: base64) else { return nil }
                return Array(data)
            }
            #expect(delivered == small.map(\.bytes), "receive: \(both.stderr)")
        }
    }
}
