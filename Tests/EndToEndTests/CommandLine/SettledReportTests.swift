import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// A window that holds audio from before the connections took effect is
    /// not a reading: it carries `"settled": false` (JSON) or `(settling)`;
    /// every report without the mark is a true reading of the signal.
    @Suite("the first reports of a run are marked until they are settled")
    struct SettledReportTests {
        /// The hop grid starts at the settled mark (AnalysisWorker.feed), so
        /// only windows that end by the mark are unsettled: with a window of one
        /// period (256 frames) the first period's window always is one (the
        /// mark is at least a period in).
        @Test("JSON: settled false until the window lies after the connections; every settled report is right")
        func json() throws {
            let server = try startServer()
            defer { server.stop() }
            let result = try runCommand(["run", "-s", server.name, "-n", "settle", "--loopback", "--json", "--duration", "0.5",
                                         "--freq", "1000", "--level", "-20", "--fft-size", "256", "--hop", "64"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let reports = result.stdoutLines.compactMap(parseReport)
            let unsettled = reports.filter { $0["settled"] as? Bool == false }
            let settled = reports.filter { $0["settled"] == nil }
            #expect(!unsettled.isEmpty, "the first window starts before the loop is connected")
            #expect(settled.count >= 10)
            // The marks come first, then never again.
            #expect(reports.prefix(unsettled.count).allSatisfy { $0["settled"] as? Bool == false })
            for report in settled {
                #expect(abs((report["freq_hz"] as? Double ?? 0) - 1000) < 0.01, "\(report)")
                #expect(abs((report["level_dbfs"] as? Double ?? 0) + 20) < 0.05, "\(report)")
            }
        }

        @Test("one line per report: unsettled lines end with (settling)")
        func human() throws {
            let server = try startServer()
            defer { server.stop() }
            let result = try runCommand(["run", "-s", server.name, "-n", "settle", "--loopback", "--plain",
                                         "--duration", "0.3", "--freq", "1000", "--level", "-20", "--fft-size", "256", "--hop", "64"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdoutLines.first?.hasSuffix("(settling)") == true, "\(result.stdout)")
            #expect(result.stdoutLines.last?.hasSuffix("(settling)") == false, "\(result.stdout)")
        }

        @Test("the first settled window starts at the settled mark, not at the next point of a grid from the first frame")
        func gridStartsAtTheMark() throws {
            let server = try startServer()   // 256 frames a period
            defer { server.stop() }
            // Hop 4096: on a grid from the first frame, the first settled report
            // would end at 8192 frames or later; from the mark, at the mark
            // (a few periods in) plus one window.
            let result = try runCommand(["run", "-s", server.name, "-n", "settle", "--loopback", "--json", "--duration", "0.4",
                                         "--freq", "1000", "--level", "-20", "--fft-size", "4096", "--hop", "4096"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let reports = result.stdoutLines.compactMap(parseReport)
            let settled = reports.filter { $0["settled"] == nil }.compactMap { $0["time_s"] as? Double }
            let first = try #require(settled.first, "\(result.stdout)")
            let markFrames = first * 48000 - 4096
            #expect(markFrames >= 256 && markFrames < 4096, "first settled report at \(first) s")
            #expect(abs(markFrames / 256 - (markFrames / 256).rounded()) < 1e-6, "the mark is at a period's start: \(first) s")
            for (earlier, later) in zip(settled, settled.dropFirst()) {
                #expect(abs(later - earlier - 4096.0 / 48000) < 1e-9, "a hop apart from the first: \(earlier) → \(later)")
            }
        }
    }
}
