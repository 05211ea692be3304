import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests {
    /// `run --send … --send-profile cable` and `run --receive-profile cable`
    /// through a real private jackd.
    @Suite("run --send/--receive with the cable profile")
    struct RunCableTests {
        @Test("run --send-profile cable --mute --loopback --receive-profile cable: a 9000-byte text (over a tone frame's cap) comes back whole, once")
        func ownLoop() throws {
            let server = try startServer(periodFrames: 1024, sampleRateHz: 48_000)
            defer { server.stop() }
            // Longer than a tone profile's frame takes (8160 bytes at most): the cable has no such cap.
            var random = SeededRandom(seed: 0xCAB1E)
            let text = String((0..<9000).map { _ in Character(Unicode.Scalar(UInt8(97 + random.next() % 26))) })
            let run = try runCommand(["run", "-s", server.name, "-n", "node", "--send", text, "--send-profile", "cable", "--mute",
                                      "--loopback", "--receive-profile", "cable", "--duration", "3", "--json"], timeoutSeconds: 30)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("sent 9000 bytes, profile cable"), "\(run.stderr)")
            let messages = run.stdoutLines.filter { $0.contains("\"profile\":\"cable\"") }
            #expect(messages.count == 1, "\(messages)")
            let object = try #require(messages.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
            #expect(object["text"] as? String == text)
        }

        @Test("run --receive-profile cable assembles the segments of send --profile cable --file into the file, byte for byte")
        func fileFromSend() throws {
            let server = try startServer(periodFrames: 1024, sampleRateHz: 48_000)
            defer { server.stop() }
            let input = ModemCommandLineTests.temporaryPath("run-cable-in.bin")
            defer { try? FileManager.default.removeItem(atPath: input) }
            let bytes = CableLinkTests.randomBytes(120_000, seed: 120)
            #expect(FileManager.default.createFile(atPath: input, contents: Data(bytes)))
            var attempt = 0
            while true {
                attempt += 1
                let name = "node\(attempt)"
                let node = try LiveCommand(["run", "-s", server.name, "-n", name, "--mute", "--receive-profile", "cable",
                                            "--json", "--duration", "15"])
                try waitForPort("\(name):in", server: server.name)
                let sent = try runCommand(["send", "-s", server.name, "-n", "tx", "--connect-out", "\(name):in",
                                           "--profile", "cable", "--file", input], timeoutSeconds: 60)
                #expect(sent.status == 0, "send: \(sent.stderr)")
                let segments = sent.stderr.firstMatch(of: /sent 120000 bytes in (\d+) segment\(s\)/).flatMap { Int($0.1) } ?? 0
                #expect(segments >= 2, "\(sent.stderr)")
                // The file's line comes once it is whole; then stop the node.
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline && !node.stdout.contains("\"profile\":\"cable\"") { Thread.sleep(forTimeInterval: 0.1) }
                node.signal(SIGINT)
                _ = node.exitStatus(timeoutSeconds: 10)
                let files = node.reports.filter { $0["profile"] as? String == "cable" }
                let delivered = files.compactMap { ($0["base64"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) }
                // Never a wrong byte: the whole file or nothing.
                #expect(delivered.allSatisfy { $0 == bytes }, "\(node.stderr.suffix(400))")
                if delivered.count == 1 {
                    #expect(files.count == 1)
                    #expect(node.stderr.contains("received 120000 of 120000 bytes (100 %), \(segments) segment(s)"), "\(node.stderr)")
                    break
                }
                // Lost only to xruns (this shared machine has no real-time scheduling), each said.
                #expect(node.stderr.contains("xrun"), "run: \(node.stderr)")
                if attempt == 3 { break }
                report("run --receive-profile cable: attempt \(attempt) lost a segment to xruns; again")
            }
        }

        @Test("run --receive-profile cable says at exit a transfer left incomplete (its sender killed after its first segment)")
        func incompleteAtExit() throws {
            let server = try startServer(periodFrames: 1024, sampleRateHz: 48_000)
            defer { server.stop() }
            let input = ModemCommandLineTests.temporaryPath("run-cable-cut.bin")
            defer { try? FileManager.default.removeItem(atPath: input) }
            #expect(FileManager.default.createFile(atPath: input, contents: Data(CableLinkTests.randomBytes(120_000, seed: 121))))
            let node = try LiveCommand(["run", "-s", server.name, "-n", "node", "--mute", "--receive-profile", "cable",
                                        "--json", "--duration", "30"])
            defer { node.stop() }
            try waitForPort("node:in", server: server.name)
            let sender = try LiveCommand(["send", "-s", server.name, "-n", "tx", "--connect-out", "node:in",
                                          "--profile", "cable", "--file", input])
            defer { sender.stop() }
            // The first of its 2 segments is whole once the node says so; then the sender dies.
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline && !node.stderr.contains("segment(s)") { Thread.sleep(forTimeInterval: 0.05) }
            sender.signal(SIGKILL)
            Thread.sleep(forTimeInterval: 1)
            node.signal(SIGINT)
            #expect(node.exitStatus(timeoutSeconds: 10)?.status == 0)
            #expect(!node.stdout.contains("\"profile\":\"cable\""), "nothing delivered: \(node.stdout.suffix(300))")
            let said = node.stderr.split(separator: "\n").filter { $0.contains("incomplete: ") && $0.contains(" of 120000 bytes") }
            #expect(said.count == 1, "\(node.stderr)")
        }

        @Test("run --send-profile cable without --mute: one line, exit 64")
        func needsMute() throws {
            let run = try runCommand(["run", "--send", "hi", "--send-profile", "cable"], timeoutSeconds: 10)
            #expect(run.status == 64)
            #expect(run.stderr.contains("error: --send-profile cable needs --mute"), "\(run.stderr)")
        }
    }
}
