import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    @Suite("run --tones")
    struct RunTonesTests {
        /// The node hears its own 440 Hz through a real server: asked for 3
        /// tones, it reports the one that is there, in a `tones` array.
        @Test("run --tones 3 --json on its own tone: a tones array holding only that tone")
        func selfLoop() throws {
            let server = try startServer()
            defer { server.stop() }
            let result = try runCommand(["run", "-s", server.name, "-n", "tones", "--json", "--duration", "0.5",
                                         "--freq", "440", "--level", "-20", "--hop", "1024", "--tones", "3",
                                         "--connect-out", "tones:in"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let objects = result.stdoutLines.compactMap(parseReport)
            // Several objects: --duration is wall clock, so how many hops 0.5 s
            // holds depends on the machine (CommandLineTests.runJSON).
            #expect(objects.count == result.stdoutLines.count && objects.count >= 5)
            // Windows that start after the loop is connected hold only the tone.
            let late = objects.filter { ($0["time_s"] as? Double ?? 0) > 0.2 }
            #expect(!late.isEmpty)
            for object in late {
                let tones = try #require(object["tones"] as? [[String: Any]], "\(object)")
                #expect(tones.count == 1, "\(tones)")
                #expect(abs((tones.first?["freq_hz"] as? Double ?? 0) - 440) < 0.001)
                #expect(abs((tones.first?["level_dbfs"] as? Double ?? 0) + 20) < 0.01)
            }
        }
    }
}
