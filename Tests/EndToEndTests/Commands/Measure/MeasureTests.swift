import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

/// `jack_iodelay` (jackd2's round-trip latency tool) on `server`, its client
/// `jack_delay` wired through `wire`; returns the last latency it printed, in
/// frames, once it has printed a few in a row. Stopped by PID.
func iodelayLatency(server: String, wire: (_ out: String, _ in: String) throws -> Void) throws -> Double? {
    // Line-buffered, or its printf output sits in a buffer until it exits.
    let iodelay = try LiveCommand.jackTool("/usr/bin/stdbuf", ["-oL", "/usr/bin/jack_iodelay"], server: server)
    defer { iodelay.stop() }
    try waitForPort("jack_delay:in", server: server)
    try wire("jack_delay:out", "jack_delay:in")
    let deadline = Date().addingTimeInterval(15)
    while Date() < deadline {
        usleep(200_000)
        // "   256.000 frames      5.333 ms total roundtrip latency"
        let values = iodelay.stdout.split(separator: "\n").filter { $0.contains("total roundtrip latency") }
            .compactMap { Double($0.split(separator: " ").first ?? "") }
        if values.count >= 4 { return values.last }
    }
    return nil
}

func jackConnect(_ source: String, _ destination: String, server: String) throws {
    let result = try runCommand([source, destination], executable: "/usr/bin/jack_connect",
                                environment: ["JACK_DEFAULT_SERVER": server])
    #expect(result.status == 0, "jack_connect \(source) \(destination): \(result.stderr)")
}

/// `tonenode measure --json` on `server`; the parsed summary. A dummy server
/// without real-time scheduling on a busy machine has xruns, and a client
/// in the chain that misses a cycle is a real glitch in the chain: when the
/// summary reports xruns, measure again (up to `attempts` times) and keep
/// the first clean run (or the last one).
func measureChain(server: String, _ arguments: [String], attempts: Int = 4) throws -> [String: Any]? {
    var summary: [String: Any]?
    for attempt in 1...attempts {
        let result = try runCommand(["measure", "-s", server, "-n", "meter", "--json", "--sweep-seconds", "1"] + arguments,
                                    timeoutSeconds: 60)
        #expect(result.status == 0, "measure failed: \(result.stderr)")
        summary = result.stdoutLines.last.flatMap(parseReport)
        let xruns = summary?["xruns"] as? Int ?? 0
        let glitches = summary?["tone_glitches"] as? Int ?? 0
        if xruns == 0 && glitches == 0 { break }
        if attempt < attempts { report("measure saw \(xruns) xrun(s), \(glitches) glitch(es); measuring again") }
    }
    return summary
}

extension JackServerTests {
    @Suite("tonenode measure agrees with jack_iodelay")
    struct MeasureTests {
        enum Loop: String, CaseIterable, Sendable {
            /// Our `out` straight to our `in`.
            case direct
            /// Through jackd2's `jack_thru` (a real client in the chain).
            case thru
        }

        @Test("latency within 0.01 frame of jack_iodelay on the same loop",
              arguments: Loop.allCases, [128, 1024])
        func latencyAgreesWithIodelay(loop: Loop, periodFrames: Int) throws {
            let server = try startServer(periodFrames: periodFrames)
            var thru: LiveCommand?
            if loop == .thru {
                thru = try LiveCommand.jackTool("/usr/bin/jack_thru", server: server.name)
                try waitForPort("jack_thru:output_1", server: server.name)
            }
            let reference = try iodelayLatency(server: server.name) { out, input in
                switch loop {
                case .direct:
                    try jackConnect(out, input, server: server.name)
                case .thru:
                    try jackConnect(out, "jack_thru:input_1", server: server.name)
                    try jackConnect("jack_thru:output_1", input, server: server.name)
                }
            }
            let iodelay = try #require(reference, "jack_iodelay printed no latency")
            try waitForPort("jack_delay:in", server: server.name, toExist: false)
            let wiring = loop == .direct ? ["--loopback"]
                : ["--connect-out", "jack_thru:input_1", "--connect-in", "jack_thru:output_1"]
            // The latency holds through an xrun (the loop's delay is read from
            // the whole sweep), so it is judged on the first try. The wire's
            // other figures (unity gain, no shift, flat, clean) need a recording
            // no xrun or glitch tore: they are claimed at 1024 frames, where a
            // try torn by a detected xrun or glitch is measured again (3 tries;
            // a run torn on every one fails, saying so). At 128 frames a
            // --no-realtime dummy server on a loaded 2-core machine tears most
            // recordings (4 of 5 runs at load 10), so they are not claimed there:
            // the same code makes them at every period.
            let claimsWire = periodFrames >= 1024
            let attempts = claimsWire ? 3 : 1
            let summary = try #require(try measureChain(server: server.name, wiring, attempts: attempts))
            let latency = try #require(summary["latency_frames"] as? Double)
            report(String(format: "%@ loop, %d frames/period: jack_iodelay %.3f, tonenode measure %.4f frames (xruns %d)",
                          loop.rawValue, periodFrames, iodelay, latency, summary["xruns"] as? Int ?? -1))
            #expect(abs(latency - iodelay) <= 0.01, "measure \(latency) vs jack_iodelay \(iodelay)")
            #expect(abs(latency - Double(periodFrames)) < 0.01, "one period round trip in a dummy loop")
            if claimsWire {
                judgeWire(summary, label: "\(loop.rawValue) loop, \(periodFrames) frames/period", attempts: attempts)
            }
            withExtendedLifetime(thru) {}
        }

        /// A wire's figures: unity gain, no shift, THD+N at float rounding, a
        /// flat response; a summary torn by an xrun or glitch on every try fails, saying so.
        private func judgeWire(_ summary: [String: Any], label: String, attempts: Int) {
            let xruns = summary["xruns"] as? Int ?? 0, glitches = summary["tone_glitches"] as? Int ?? 0
            #expect(xruns == 0 && glitches == 0, """
                \(label): every one of \(attempts) tries was torn (the last: \(xruns) xrun(s), \(glitches) glitch(es)): \
                gain, THD+N and response not judged
                """)
            guard xruns == 0 && glitches == 0 else { return }
            #expect(abs(summary["gain_db"] as? Double ?? 99) < 0.001)
            #expect(abs(summary["frequency_shift_hz"] as? Double ?? 99) < 0.001)
            #expect((summary["thd_n_db"] as? Double ?? 0) < -120)
            let response = summary["response"] as? [[String: Double]] ?? []
            #expect(response.count > 200)
            #expect(response.allSatisfy { abs($0["db"] ?? 99) < 0.01 })
        }

        @Test("a fractional round trip (a sinc delay of 64.37 frames in the loop): within 0.01 frame of jack_iodelay",
              arguments: [256, 1024])
        func fractionalLatencyAgreesWithIodelay(periodFrames: Int) throws {
            let server = try startServer(periodFrames: periodFrames)
            let delay = FractionalDelay(fraction: 0.37, gain: 0.5)
            let peer = try JackPeer(name: "fracdelay", server: server.name, audioIn: ["in"], audioOut: ["out"],
                                    process: delay.process)
            let reference = try iodelayLatency(server: server.name) { out, input in
                try jackConnect(out, "fracdelay:in", server: server.name)
                try jackConnect("fracdelay:out", input, server: server.name)
            }
            let iodelay = try #require(reference, "jack_iodelay printed no latency")
            try waitForPort("jack_delay:in", server: server.name, toExist: false)
            let summary = try #require(try measureChain(server: server.name,
                                                        ["--connect-out", "fracdelay:in", "--connect-in", "fracdelay:out"]))
            let latency = try #require(summary["latency_frames"] as? Double)
            let expected = Double(periodFrames) + delay.delayFrames
            report(String(format: "through a %.2f-frame sinc delay, %d frames/period: jack_iodelay %.3f, tonenode measure %.4f frames, expected %.2f (xruns %d)",
                          delay.delayFrames, periodFrames, iodelay, latency, expected, summary["xruns"] as? Int ?? -1))
            #expect(abs(latency - iodelay) <= 0.01, "measure \(latency) vs jack_iodelay \(iodelay)")
            #expect(abs(latency - expected) <= 0.01, "measure \(latency) vs the peer's delay \(expected)")
            #expect(abs((summary["gain_db"] as? Double ?? 99) - 20 * log10(0.5)) < 0.01)
            withExtendedLifetime(peer) {}
        }

        @Test("through a low-pass, distorting JACK client: response, gain and THD+N as computed")
        func filterAndDistortionThroughJACK() throws {
            let server = try startServer(periodFrames: 256)
            let a = 0.7, c = 2.0
            // halfLength 1: with no fraction the sinc is a single tap; keeps the client's cycle cheap.
            let colour = FractionalDelay(fraction: 0, gain: 1, halfLength: 1, lowPassA: a, cubic: c)
            let peer = try JackPeer(name: "colour", server: server.name, audioIn: ["in"], audioOut: ["out"],
                                    process: colour.process)
            let plotPath = NSTemporaryDirectory() + "tn-measure-lowpass-\(getpid()).svg"
            let summary = try #require(try measureChain(server: server.name, [
                "--connect-out", "colour:in", "--connect-in", "colour:out", "--level", "-20", "--plot", plotPath]))
            defer { if ProcessInfo.processInfo.environment["TN_KEEP_PLOTS"] == nil { try? FileManager.default.removeItem(atPath: plotPath) } }
            func lowPassDB(_ hz: Double) -> Double {
                let w = 2 * Double.pi * hz / 48000
                let re = 1 - a * cos(w), im = a * sin(w)
                return 20 * log10((1 - a) / (re * re + im * im).squareRoot())
            }
            // The cubic compresses the tone a little: fundamental A·g + 3c(A·g)³/4 with g the filter's gain.
            let amplitude = pow(10, -20.0 / 20) * pow(10, lowPassDB(1000) / 20)
            let harmonic = c * amplitude * amplitude * amplitude / 4
            let expectedGain = 20 * log10((amplitude + 3 * harmonic) / pow(10, -20.0 / 20))
            let gain = summary["gain_db"] as? Double ?? 99
            #expect(abs(gain - expectedGain) < 0.01, "gain \(gain) vs \(expectedGain)")
            // Third harmonic of 1 kHz passes the filter at 3 kHz's gain… after the cubic: the cubic is last, so not filtered.
            let expectedTHDN = 20 * log10(harmonic / (amplitude + 3 * harmonic))
            let thdN = summary["thd_n_db"] as? Double ?? 99
            #expect(abs(thdN - expectedTHDN) < 0.2, "THD+N \(thdN) vs \(expectedTHDN)")
            var worst = 0.0
            for point in summary["response"] as? [[String: Double]] ?? [] {
                guard let hz = point["hz"], let db = point["db"] else { continue }
                // The cubic adds 3c(A·g)²/4 to the fundamental's gain (A·g: the sweep's amplitude after the filter).
                let swept = pow(10, -20.0 / 20) * pow(10, lowPassDB(hz) / 20)
                let expected = lowPassDB(hz) + 20 * log10(1 + 3 * c * swept * swept / 4)
                worst = max(worst, abs(db - expected))
            }
            report(String(format: "low-pass a=%.1f + cubic c=%.0f client: response within %.3f dB of analytic; gain %.3f dB (expected %.3f); THD+N %.2f dB (expected %.2f)",
                          a, c, worst, gain, expectedGain, thdN, expectedTHDN))
            #expect(worst < 0.1, "largest deviation from the analytic low-pass \(worst) dB")
            #expect(FileManager.default.fileExists(atPath: plotPath))
            withExtendedLifetime(peer) {}
        }

        @Test("other sample rates: the sweep stops below Nyquist, the loop is still one period", arguments: [22050, 96000])
        func otherRates(rateHz: Int) throws {
            let server = try startServer(periodFrames: 256, sampleRateHz: rateHz)
            let summary = try #require(try measureChain(server: server.name, ["--loopback"], attempts: 2))
            let sweepEnd = try #require(summary["sweep_end_hz"] as? Double)
            #expect(sweepEnd == min(20000, 0.95 * Double(rateHz) / 2))
            #expect(abs((summary["latency_frames"] as? Double ?? 0) - 256) < 0.01)
            #expect(abs((summary["latency_ms"] as? Double ?? 0) - 256 / Double(rateHz) * 1000) < 0.001)
            let response = summary["response"] as? [[String: Double]] ?? []
            #expect(response.last.map { ($0["hz"] ?? 0) <= sweepEnd } == true)
            #expect(response.allSatisfy { abs($0["db"] ?? 99) < 0.01 })
        }

        @Test func nothingConnectedIsOneErrorLine() throws {
            let server = try startServer()
            // At once, not after the sweep and the longest latency have passed.
            // The bound is wall clock, so it leaves room for what a shared
            // 2-core machine adds (a process start, a JACK open: 1.5 s was
            // once too tight) and the sweep is made long enough that the bug
            // cannot hide in that room: waiting out a 10 s sweep takes 10 s.
            let started = Date()
            let result = try runCommand(["measure", "-s", server.name, "--sweep-seconds", "10"], timeoutSeconds: 60)
            let seconds = Date().timeIntervalSince(started)
            #expect(seconds < 5, "the error came after \(seconds) s")
            #expect(result.status == 1)
            #expect(result.stderrLines == ["tonenode: error: nothing is connected to tonenode:out: "
                                           + "name the chain with --connect-out (or use --loopback)"], "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            // Out connected but nothing comes back in: the same at once, naming `in`.
            let peer = try JackPeer(name: "sink", server: server.name, audioIn: ["in"]) { _ in }
            defer { peer.close() }
            let half = try runCommand(["measure", "-s", server.name, "--connect-out", "sink:in"], timeoutSeconds: 60)
            #expect(half.stderrLines.last == "tonenode: error: nothing is connected to tonenode:in: "
                                              + "name the chain with --connect-in (or use --loopback)", "\(half.stderr)")
        }

        @Test func aPortThatDoesNotExistIsOneErrorLine() throws {
            let server = try startServer()
            let result = try runCommand(["measure", "-s", server.name, "--connect-out", "nobody:in"], timeoutSeconds: 30)
            #expect(result.status == 1)
            #expect(result.stderrLines.last == "tonenode: error: no JACK port named 'nobody:in' (`jack_lsp` lists the ports)",
                    "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }

        @Test func plotIsWrittenAndLabelled() throws {
            let server = try startServer()
            let path = NSTemporaryDirectory() + "tn-measure-\(UUID().uuidString).svg"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try runCommand(["measure", "-s", server.name, "--loopback", "--sweep-seconds", "0.5",
                                         "--plot", path], timeoutSeconds: 60)
            #expect(result.status == 0, "\(result.stderr)")
            let svg = try String(contentsOfFile: path, encoding: .utf8)
            #expect(svg.contains("<svg") && svg.contains("frequency (Hz)") && svg.contains("gain (dB)"))
            #expect(result.stdoutLines.first?.hasPrefix("latency") == true)
        }
    }
}
