import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

// `measure` through a real LV2 plugin hosted by jalv, in the `MeasureTests` suite.

extension JackServerTests.MeasureTests {
    @Test("measure through x42-eq hosted by jalv: a +6 dB peak at 3 kHz reads +6 dB there, within 0.05 dB of 0 dB from 20 to 100 Hz, one period + the filter's delay",
          .enabled(if: JalvHost.missing(["http://gareus.org/oss/lv2/fil4#mono"]) == nil))
    func jalvEqualizer() throws {
        let server = try startServer(periodFrames: 256)
        // Only the second parametric section: +6 dB at 3 kHz, bandwidth 1 octave; every other section at 0 dB.
        let eq = try JalvHost(name: "eq", uri: "http://gareus.org/oss/lv2/fil4#mono", server: server.name,
                              controls: ["freq2": 3000, "gain2": 6, "q2": 1], firstOutput: "out")
        defer { eq.stop() }
        // fil4 glides to its controls after it starts: measured at once, the
        // sweep's low end read −0.10 to −0.13 dB at 20 Hz, varying run to run
        // (a fresh-clone CI run, 2026-11-26, failed on it); 1 s later, 0.0000
        // dB at 20 Hz in every run.
        usleep(1_000_000)
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
        // Far below the bell the settled plugin is flat: measured 0.0000 dB at 20 Hz, +0.0151 dB at 63.5 Hz and
        // +0.0348 dB at 100 Hz (the bell's skirt), the same in 8 runs.
        #expect(low < 0.05)
        // A minimum-phase filter delays a little: the latency is one period plus a fraction of a frame, never less.
        #expect(latency >= 256 && latency < 258)
    }
}
