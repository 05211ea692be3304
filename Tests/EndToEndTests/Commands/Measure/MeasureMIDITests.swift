import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

// `measure --what midi` against a synth with a known latency (`MIDIResponder`),
// in the `MeasureTests` suite.

extension JackServerTests.MeasureTests {
    @Test("measure --what midi through a JACK client that answers each note K frames later: every note within 0.1 frame",
          arguments: [100.0, 37.625])
    func midiLatencyThroughJACK(delayFrames: Double) throws {
        let periodFrames = 256
        let server = try startServer(periodFrames: periodFrames)
        let synth = MIDIResponder(delayFrames: delayFrames)
        let peer = try JackPeer(name: "synth", server: server.name, audioOut: ["out"], midiIn: ["midi_in"],
                                process: synth.process)
        let plotPath = NSTemporaryDirectory() + "tn-measure-midi-\(getpid()).svg"
        defer { try? FileManager.default.removeItem(atPath: plotPath) }
        var summary: [String: Any]?
        var stderr = ""
        for _ in 1...3 {
            let result = try runCommand(["measure", "-s", server.name, "-n", "meter", "--json", "--what", "midi",
                                         "--midi-notes", "16", "--plot", plotPath,
                                         "--connect-midi", "synth:midi_in", "--connect-in", "synth:out"], timeoutSeconds: 60)
            #expect(result.status == 0, "measure failed: \(result.stderr)")
            summary = result.stdoutLines.last.flatMap(parseReport)
            stderr = result.stderr
            if (summary?["xruns"] as? Int ?? 0) == 0 { break }
        }
        #expect(stderr.contains("meter:midi_out"), "the MIDI output is registered with --what midi")
        let midi = try #require(summary?["midi"] as? [String: Any])
        // The answer reaches our `in` one period after the synth made it (the loop through our own client).
        let expected = delayFrames + Double(periodFrames)
        let latencies = (midi["latencies_frames"] as? [Any] ?? []).compactMap { $0 as? Double }
        #expect(latencies.count == 16 && midi["notes_answered"] as? Int == 16)
        let worst = latencies.map { abs($0 - expected) }.max() ?? .infinity
        report(String(format: "MIDI responder %.3f frames + one period of %d: expected %.3f, median %.4f, worst note off by %.4f frames (xruns %d)",
                      delayFrames, periodFrames, expected, midi["median_frames"] as? Double ?? .nan, worst,
                      summary?["xruns"] as? Int ?? -1))
        #expect(worst < 0.1, "worst note \(worst) frames off \(expected)")
        for key in ["min_frames", "median_frames", "p99_frames", "max_frames"] {
            #expect(abs((midi[key] as? Double ?? 0) - expected) < 0.1, "\(key)")
        }
        let svg = try String(contentsOfFile: plotPath, encoding: .utf8)
        #expect(svg.contains("MIDI → audio latency") && svg.contains("<rect"), "the latency histogram")
        withExtendedLifetime(peer) {}
    }

    @Test("without --what midi measure has no MIDI port; --what midi without --connect-midi is refused (exit 64)")
    func midiPortOnlyWhenAsked() throws {
        let server = try startServer(periodFrames: 256)
        let plain = try runCommand(["measure", "-s", server.name, "-n", "meter", "--loopback", "--sweep-seconds", "0.5"],
                                   timeoutSeconds: 60)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("ports meter:in (in), meter:out (out)"), "\(plain.stderr)")
        #expect(!plain.stderr.contains("midi"))
        let refused = try runCommand(["measure", "-s", server.name, "--what", "midi"], timeoutSeconds: 20)
        #expect(refused.status == 64)
        #expect(refused.stderrLines == ["tonenode: error: --what midi needs --connect-midi PORT (the MIDI input of the synth under test)"])
    }
}
