import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    @Suite("run --steady")
    struct RunSteadyTests {
        /// The node hears its own steady 440 Hz through a real server: once the
        /// tone has held longer than a window, its reports are fitted over the
        /// span it has held (`span_s`, growing), and they read the tone exactly;
        /// with `--steady 0` every report is one window's (no `span_s`).
        @Test("run --json on its own steady tone: span_s grows with the tone; --steady 0: none", arguments: [8.0, 0.0])
        func selfLoop(steadySeconds: Double) throws {
            let server = try startServer()
            defer { server.stop() }
            let result = try runCommand(["run", "-s", server.name, "-n", "steady", "--json", "--duration", "1.5",
                                         "--freq", "440", "--level", "-20", "--steady", "\(steadySeconds)",
                                         "--connect-out", "steady:in"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let objects = result.stdoutLines.compactMap(parseReport)
            #expect(objects.count == result.stdoutLines.count && objects.count >= 50)
            let spans = objects.compactMap { object -> (Double, Double)? in
                guard let time = object["time_s"] as? Double, let span = object["span_s"] as? Double else { return nil }
                return (time, span)
            }
            if steadySeconds == 0 {
                #expect(spans.isEmpty, "\(spans.prefix(3))")
                return
            }
            // From 1 s on (the loop connects within the first few hundred ms): a span of half a second or more, growing.
            let late = spans.filter { $0.0 >= 1.0 }
            #expect(late.count >= 20)
            #expect(late.allSatisfy { $0.1 >= 0.5 }, "\(late.prefix(3))")
            #expect(zip(late, late.dropFirst()).allSatisfy { $0.1.1 > $0.0.1 }, "the span grows hop by hop")
            for object in objects where (object["time_s"] as? Double ?? 0) >= 1.0 {
                #expect(abs((object["freq_hz"] as? Double ?? 0) - 440) < 1e-6, "\(object)")
            }
        }
    }
}
