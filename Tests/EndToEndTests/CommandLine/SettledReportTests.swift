import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// A window that holds audio from before the connections took effect is
    /// not a reading: it carries `"settled": false` (JSON) or `(settling)`;
    /// every report without the mark is a true reading of the signal.
    @Suite("the first reports of a run are marked until they are settled")
    struct SettledReportTests {
        @Test("JSON: settled false until the window lies after the connections; every settled report is right")
        func json() throws {
            let server = try startServer()
            defer { server.stop() }
            let result = try runCommand(["run", "-s", server.name, "-n", "settle", "--loopback", "--json", "--duration", "0.5",
                                         "--freq", "1000", "--level", "-20", "--fft-size", "4096", "--hop", "512"])
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
                                         "--duration", "0.3", "--freq", "1000", "--level", "-20"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdoutLines.first?.hasSuffix("(settling)") == true, "\(result.stdout)")
            #expect(result.stdoutLines.last?.hasSuffix("(settling)") == false, "\(result.stdout)")
        }
    }
}
