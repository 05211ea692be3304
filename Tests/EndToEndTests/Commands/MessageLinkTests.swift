import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests {
    /// `tonenode send` and `receive` (and `run --send/--receive`) through a
    /// real private jackd: separate processes, the node's own loop, jack_thru.
    @Suite("Messages as tones through JACK")
    struct MessageLinkTests {
        @Test("one send process → one receive process: the exact text and every JSON field",
              arguments: [(32, 48_000, "ultrasonic"), (4096, 48_000, "ultrasonic"), (256, 44_100, "ultrasonic"),
                          (256, 96_000, "ultrasonic-fast"), (1024, 48_000, "audible-fast")])
        func sendToReceive(periodFrames: Int, sampleRateHz: Int, profile: String) throws {
            let server = try startServer(periodFrames: periodFrames, sampleRateHz: sampleRateHz)
            defer { server.stop() }
            let text = "Grüße \"über\" JACK \\ \(periodFrames)"
            // An xrun drops audio on the way (period 32 on a loaded machine
            // without real-time scheduling: one every few periods); a frame
            // that loses audio is dropped, never delivered damaged. Only then
            // is the exchange tried again (up to three times): a loss without
            // an xrun is a failure.
            var receiver: LiveCommand
            var sent: CommandResult
            var sendSeconds = 0.0
            var attempt = 0
            while true {
                attempt += 1
                receiver = try Self.receiver(server.name, name: "rx\(attempt)", extra: ["--count", "1"])
                let started = Date()
                sent = try Self.send(server.name, [text, "--profile", profile], to: "rx\(attempt):in")
                sendSeconds = Date().timeIntervalSince(started)
                _ = receiver.exitStatus(timeoutSeconds: 10)
                let lostToXruns = Self.messages(receiver).isEmpty && receiver.stderr.contains("xrun")
                if !lostToXruns || attempt == 3 { break }
                report("send → receive, \(periodFrames) frames/period: attempt \(attempt) lost to xruns; again")
            }
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            #expect(sent.stdout.isEmpty)
            #expect(sent.stderr.contains("sent \(text.utf8.count) bytes in 1 frame(s) on tx:out, profile \(profile)"))
            let status = receiver.exitStatus(timeoutSeconds: 1)
            #expect(status?.status == 0, "receive: \(receiver.stderr)")
            let objects = Self.messages(receiver)
            #expect(objects.count == 1 && receiver.stdout.split(separator: "\n").count == 1, "stdout: \(receiver.stdout)")
            let object = try #require(objects.first)
            #expect(object["text"] as? String == text)
            #expect(object["base64"] as? String == Data(text.utf8).base64EncodedString())
            #expect(object["profile"] as? String == profile)
            #expect(object["frames"] as? Int == 1)
            let snr = object["snr_db"] as? Double ?? -.infinity
            // A clean digital path gives a high in-band SNR. With xruns (period 32
            // on a loaded machine without real-time scheduling: one every few
            // periods) the sender misses cycles and the receiver hears holes in
            // the signal; the code still corrects them, at a much lower SNR.
            // Kept loose with xruns, for this reason: the SNR then measures the
            // holes, whose length is the machine's (how late a starved process
            // ran), not the code's; what the test holds the code to there is
            // the exact text above, which a hole the code failed to correct
            // would have broken. Without xruns a digital wire must give 20 dB.
            let xruns = receiver.stderr.contains("xrun")
            #expect(snr > (xruns ? -20 : 20), "snr \(snr) dB; receive: \(receiver.stderr.suffix(300))")
            let time = object["time_s"] as? Double ?? -1
            #expect(time > 0 && time < 30)
            report(String(format: "send → receive, %d frames/period at %d Hz, %@: snr %.1f dB%@, send took %.2f s",
                          periodFrames, sampleRateHz, profile, snr, xruns ? " (with xruns)" : "", sendSeconds))
        }

        @Test("back to back: three sends, one of them three frames of binary from --file, all in order")
        func backToBack() throws {
            let server = try startServer(periodFrames: 512)
            defer { server.stop() }
            let receiver = try Self.receiver(server.name, extra: ["--count", "3"])
            let file = NSTemporaryDirectory() + "tn-live-\(getpid())-bytes.bin"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let bytes: [UInt8] = (0..<80).map { UInt8(255 - $0) }  // three frames, not UTF-8
            _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
            #expect(try Self.send(server.name, ["first"]).status == 0)
            #expect(try Self.send(server.name, ["--file", file, "--profile", "ultrasonic-fast"]).status == 0)
            #expect(try Self.send(server.name, ["third", "--profile", "audible"]).status == 0)
            #expect(receiver.exitStatus(timeoutSeconds: 10)?.status == 0, "receive: \(receiver.stderr)")
            let objects = Self.messages(receiver)
            #expect(objects.count == 3, "stdout: \(receiver.stdout)")
            guard objects.count == 3 else { return }
            #expect(objects[0]["text"] as? String == "first")
            #expect(objects[1]["text"] == nil)
            #expect(objects[1]["base64"] as? String == Data(bytes).base64EncodedString())
            #expect(objects[1]["frames"] as? Int == 3)
            #expect(objects[2]["text"] as? String == "third" && objects[2]["profile"] as? String == "audible")
            let times = objects.compactMap { $0["time_s"] as? Double }
            #expect(times == times.sorted() && times.count == 3)
        }

        @Test("run --send … --receive through the node's own out → in, beside the reports")
        func selfLoop() throws {
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "loop", "--send", "to myself", "--receive",
                                        "--connect-out", "loop:in", "--json", "--freq", "440"])
            #expect(node.waitUntil(timeoutSeconds: 15) { !Self.messages($0).isEmpty }, "stderr: \(node.stderr)")
            node.signal(SIGINT)
            #expect(node.exitStatus(timeoutSeconds: 5)?.status == 0)
            let objects = Self.messages(node)
            #expect(objects.count == 1)
            #expect(objects.first?["text"] as? String == "to myself")
            #expect(objects.first?["profile"] as? String == "ultrasonic")
            // The tone analysis goes on: reports of the 440 Hz tone under the message.
            let tones = node.reports.compactMap { $0["freq_hz"] as? Double }
            #expect(tones.contains { abs($0 - 440) < 0.01 })
            #expect(node.stderr.contains("sent 9 bytes, profile ultrasonic"))
        }

        /// Sends `text` into a relay client (`relay.in` → `relay.out`: jack_thru,
        /// a test peer) and expects it, exactly, from a `receive --count 1`
        /// listening on `relay.out` as client `rx`.
        static func expectRelayed(_ text: String, server: String, relay: (in: String, out: String), profile: String,
                                  receiveArguments: [String] = [], timeoutSeconds: Double,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
            let receiver = try LiveCommand(["receive", "-s", server, "-n", "rx", "--json", "--count", "1"]
                                           + receiveArguments + ["--connect-in", relay.out])
            try waitForPort("rx:in", server: server, sourceLocation: sourceLocation)
            let sent = try Self.send(server, [text, "--profile", profile], to: relay.in)
            #expect(sent.status == 0, "stderr: \(sent.stderr)", sourceLocation: sourceLocation)
            #expect(receiver.exitStatus(timeoutSeconds: timeoutSeconds)?.status == 0, "receive: \(receiver.stderr)",
                    sourceLocation: sourceLocation)
            #expect(Self.messages(receiver).first?["text"] as? String == text, sourceLocation: sourceLocation)
        }

        @Test("send → jack_thru → receive")
        func throughJackThru() throws {
            let server = try startServer(periodFrames: 128)
            defer { server.stop() }
            let thru = try LiveCommand.jackTool("/usr/bin/jack_thru", server: server.name)
            try waitForPort("jack_thru:output_1", server: server.name)
            try Self.expectRelayed("via jack_thru", server: server.name, relay: ("jack_thru:input_1", "jack_thru:output_1"),
                                   profile: "audible", timeoutSeconds: 10)
            withExtendedLifetime(thru) {}
        }

        @Test("ultrasonic-fast through a client that adds a room's worth of echoes: the receiver undoes them")
        func throughEchoes() throws {
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            let room = FractionalDelay(fraction: 0, halfLength: 1, echoes: ModemChannel.echoes(sampleRateHz: 48_000))
            let peer = try JackPeer(name: "room", server: server.name, audioIn: ["in"], audioOut: ["out"],
                                    process: room.process)
            // Generous: the equalizer is slow in sanitizer builds.
            try Self.expectRelayed("in a live room", server: server.name, relay: ("room:in", "room:out"),
                                   profile: "ultrasonic-fast", receiveArguments: ["--profile", "ultrasonic-fast"],
                                   timeoutSeconds: 30)
            withExtendedLifetime(peer) {}
        }

        @Test("receive outlives a server restart (now at 44.1 kHz) and hears the next message; times go on")
        func acrossRestart() throws {
            let name = "tn-test-rx-restart-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            var server = try startServer(periodFrames: 256, sampleRateHz: 48_000, name: name)
            defer { server.stop() }
            let receiver = try Self.receiver(name, extra: ["--count", "2"])
            #expect(try Self.send(name, ["before"]).status == 0)
            #expect(receiver.waitUntil(timeoutSeconds: 10) { Self.messages($0).count == 1 }, "\(receiver.stderr)")
            server.stop()
            #expect(receiver.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("waiting for it to come back") })
            server = try startServer(periodFrames: 512, sampleRateHz: 44_100, name: name)
            #expect(receiver.waitUntil(timeoutSeconds: 15) { $0.stderr.contains("reconnected: client 'rx' at 44100 Hz") },
                    "\(receiver.stderr)")
            #expect(try Self.send(name, ["after"]).status == 0)
            #expect(receiver.exitStatus(timeoutSeconds: 10)?.status == 0, "\(receiver.stderr)")
            let objects = Self.messages(receiver)
            #expect(objects.compactMap { $0["text"] as? String } == ["before", "after"])
            let times = objects.compactMap { $0["time_s"] as? Double }
            #expect(times.count == 2 && times[1] > times[0])
        }

        /// Freewheel (`jack_freewheel y`) runs the graph hundreds of times
        /// faster than real time while a four-frame message plays: the
        /// receiver's worker falls behind, its input ring overflows, and the
        /// frames cut by the gap must be dropped (the message then reported
        /// incomplete), never delivered damaged.
        @Test("input ring overflow under freewheel while a message plays: exact or incomplete, never damaged")
        func overflowUnderFreewheel() throws {
            let server = try startServer(periodFrames: 1024)
            defer { server.stop() }
            let environment = ["JACK_DEFAULT_SERVER": server.name]
            let receiver = try Self.receiver(server.name, extra: ["--duration", "6"])
            let text = String(repeating: "freewheel ", count: 12)  // 120 bytes: four frames, 3.3 s
            let sender = try LiveCommand(["send", "-s", server.name, "-n", "tx", "--connect-out", "rx:in", text])
            try waitForPort("tx:out", server: server.name)
            #expect(try runCommand(["y"], executable: "/usr/bin/jack_freewheel", environment: environment).status == 0)
            usleep(1_000_000)
            #expect(try runCommand(["n"], executable: "/usr/bin/jack_freewheel", environment: environment).status == 0)
            #expect(sender.exitStatus(timeoutSeconds: 10)?.status == 0, "send: \(sender.stderr)")
            // (A message sent after `jack_freewheel n` is not checked: on the
            // dummy backend no client here passed audio any more after it,
            // a fresh receiver included.)
            #expect(receiver.exitStatus(timeoutSeconds: 15) != nil)
            let objects = Self.messages(receiver)
            #expect(objects.count <= 1, "stdout: \(receiver.stdout)")
            let overflows = receiver.stderr.split(separator: "\n").compactMap { line -> Int? in
                guard let range = line.range(of: " input ring overflow") else { return nil }
                return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
            }.max() ?? 0
            #expect(overflows > 0, "the worker kept up with freewheel; no gap was provoked")
            // What the storm left of the long message: nothing (its first frame
            // was cut), an incomplete report, or — if the gap missed it — the
            // exact text. Never other bytes.
            for object in objects {
                if object["incomplete"] as? Bool == true {
                    #expect(object["frames"] as? Int == 4)
                    #expect((object["frames_received"] as? Int ?? 4) < 4)
                    #expect(object["base64"] == nil && object["text"] == nil)
                } else {
                    #expect(object["text"] as? String == text)
                }
            }
            let outcome = objects.first.map { $0["incomplete"] != nil
                ? "incomplete, \($0["frames_received"] ?? "?") of 4 frames" : "delivered whole" } ?? "nothing"
            report("freewheel overflow during a 4-frame message: \(overflows) ring overflows; message \(outcome)")
        }

        @Test("a 32 kHz server: ultrasonic cannot be sent or heard (exit 1, one line); audible works, human output")
        func lowRate() throws {
            let server = try startServer(periodFrames: 256, sampleRateHz: 32_000)
            defer { server.stop() }
            for command in [["send", "x"], ["receive", "--profile", "ultrasonic"]] {
                let result = try runCommand(command + ["-s", server.name], timeoutSeconds: 15)
                #expect(result.status == 1, "\(command): \(result.stderr)")
                #expect(result.stderrLines.filter { $0.contains("error") }.count == 1
                        && result.stderr.contains("tonenode: error: "), "\(result.stderr)")
            }
            let receiver = try LiveCommand(["receive", "-s", server.name, "-n", "rx", "--count", "1"])
            try waitForPort("rx:in", server: server.name)
            #expect(try Self.send(server.name, ["line\tbreak", "--profile", "audible"]).status == 0)
            #expect(receiver.exitStatus(timeoutSeconds: 10)?.status == 0, "receive: \(receiver.stderr)")
            let lines = receiver.stdout.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.hasSuffix("  line\\tbreak") == true, "\(receiver.stdout)")
            #expect(lines.first?.contains(" s  audible  snr ") == true)
        }

        @Test("receive --duration with nothing sent: exit 1, nothing on stdout; no server: exit 1")
        func nothingHeard() throws {
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            let result = try runCommand(["receive", "-s", server.name, "--duration", "1"], timeoutSeconds: 15)
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            // send with nothing connected to its out: no one hears it, so not a success.
            let unheard = try runCommand(["send", "x", "-s", server.name, "-n", "tx"], timeoutSeconds: 15)
            #expect(unheard.status == 1)
            #expect(unheard.stderrLines == ["tonenode: error: nothing is connected to tx:out, so no one would hear the message; "
                                            + "connect it with --connect-out PORT (nothing was sent)"], "\(unheard.stderr)")
            for command in [["receive", "--no-reconnect"], ["send", "x"]] {
                let gone = try runCommand(command + ["-s", "tn-no-such-server-\(getpid())"], timeoutSeconds: 15)
                #expect(gone.status == 1)
                #expect(gone.stderrLines.count == 1 && gone.stderr.hasPrefix("tonenode: error: "), "\(gone.stderr)")
            }
        }
    }
}

@Suite("send / receive / run --send: bad input")
struct MessageLinkOptionTests {
    @Test("one line on stderr, exit 64 (bad option) or 1 (unreadable or empty input), before any JACK client",
          arguments: [
            (["send"], 64), (["send", ""], 64), (["send", "x", "--profile", "loud"], 64),
            (["send", "x", "--file", "y"], 64), (["send", "x", "--level", "3"], 64),
            (["send", "--file", "/nonexistent/y"], 1), (["receive", "--profile", "loud"], 64),
            (["receive", "--count", "0"], 64), (["receive", "--duration", "-1"], 64),
            (["run", "--send", ""], 64), (["run", "--send", "x", "--send-profile", "loud"], 64),
            (["run", "--send", String(repeating: "x", count: 8161)], 64),
          ] as [([String], Int32)])
    func badInput(arguments: [String], status: Int32) throws {
        // A server name no one runs: a client must not even be tried for these.
        let result = try runCommand(arguments + ["-s", "tn-no-such-server-\(getpid())"])
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("tonenode: error: "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("empty standard input: exit 1, one line")
    func emptyStdin() throws {
        let tonenode = productsDirectory.appendingPathComponent("tonenode").path
        let result = try runCommand(["-c", "'\(tonenode)' send - -s tn-no-such-server < /dev/null"], executable: "/bin/sh")
        #expect(result.status == 1)
        #expect(result.stderr == "tonenode: error: the message is empty (standard input); nothing to send\n")
    }
}
