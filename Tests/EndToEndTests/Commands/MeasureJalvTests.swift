import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

// `measure` through a real LV2 plugin hosted by jalv, in the `MeasureTests` suite.

extension JackServerTests.MeasureTests {
    @Test("measure through x42-eq hosted by jalv: a +6 dB peak at 3 kHz reads +6 dB there, within 0.12 dB of 0 dB from 20 to 100 Hz, one period + the filter's delay",
          .enabled(if: JalvHost.missing(["http://gareus.org/oss/lv2/fil4#mono"]) == nil))
    func jalvEqualizer() throws {
        let server = try startServer(periodFrames: 256)
        // Only the second parametric section: +6 dB at 3 kHz, bandwidth 1 octave; every other section at 0 dB.
        let eq = try JalvHost(name: "eq", uri: "http://gareus.org/oss/lv2/fil4#mono", server: server.name,
                              controls: ["freq2": 3000, "gain2": 6, "q2": 1], firstOutput: "out")
        defer { eq.stop() }
        let summary = try #require(try measureChain(server: server.name, ["--connect-out", "eq:in", "--connect-in", "eq:out"]))
        let response = (summary["response"] as? [[String: Double]] ?? []).compactMap { point -> (hz: Double, db: Double)? in
            guard let hz = point["hz"], let db = point["db"] else { return nil }
            return (hz, db)
        }
        let peak = try #require(response.max { $0.db < $1.db })
        let low = response.filter { $0.hz <= 100 }.map { abs($0.db) }.max() ?? .infinity
        let latency = summary["latency_frames"] as? Double ?? 0
        report(String(format: "jalv x42-eq: peak %+.4f dB at %.0f Hz, |gain| 20…100 Hz ≤ %.4f dB, latency %.3f frames",
                      peak.db, peak.hz, low, latency))
        // The response is sampled on a grid: the peak may fall between points (0.1 dB of a one-octave bell is ±13 %).
        #expect(abs(peak.db - 6) < 0.1 && abs(peak.hz / 3000 - 1) < 0.05)
        // Far below the bell the plugin is flat within 0.1 dB: measured −0.093 dB at 20 Hz (fil4's own low
        // end), 0.000 dB at 62 Hz and +0.032 dB at 101 Hz (the bell's skirt), the same on every run.
        #expect(low < 0.12)
        // A minimum-phase filter delays a little: the latency is one period plus a fraction of a frame, never less.
        #expect(latency >= 256 && latency < 258)
    }
}
