import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// A port given the wrong way round (`--connect-out` an output,
    /// `--connect-in` an input) is one line that says so and names the ports
    /// that would fit, the port's own client's first and none of ours; every
    /// command connects through the same call, so `run` and `measure` say the same.
    @Suite("a connection the wrong way round names the ports that fit")
    struct ConnectDirectionTests {
        @Test("--connect-out an output, --connect-in an input", arguments: [
            (["run", "--connect-out", "system:capture_1"],
             "tonenode: error: 'system:capture_1' is an output: connect 'tn:out' to an input: system:playback_1, system:playback_2"),
            (["run", "--connect-in", "system:playback_1"],
             "tonenode: error: 'system:playback_1' is an input: connect an output to 'tn:in': system:capture_1, system:capture_2"),
            (["measure", "--connect-out", "system:capture_2", "--connect-in", "system:capture_1"],
             "tonenode: error: 'system:capture_2' is an output: connect 'tn:out' to an input: system:playback_1, system:playback_2"),
        ])
        func wrongDirection(arguments: [String], line: String) throws {
            let server = try startServer()
            defer { server.stop() }
            let result = try runCommand(arguments + ["-s", server.name, "-n", "tn"], timeoutSeconds: 20)
            #expect(result.status == 1)
            #expect(result.stderrLines.last == line, "\(result.stderr)")
            #expect(result.stderrLines.filter { $0.contains("error") }.count == 1, "\(result.stderr)")
        }
    }
}
