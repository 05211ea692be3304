import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    /// `run` with nothing on `in` says "in: not connected" (JSON
    /// `"connected":false`), here through the worker's sink (stdout a pipe;
    /// the supervisor's events path is in tonenodeTests' UnconnectedInputTests); once
    /// something feeds `in` (here `jack_connect tn:out tn:in`) the lines are
    /// readings again, within about a second (the supervisor follows the graph that often).
    @Suite("run: an input nothing feeds says so")
    struct UnconnectedInputTests {
        @Test("text and JSON, then connected by hand", arguments: [false, true])
        func notConnectedThenConnected(json: Bool) throws {
            let server = try startServer()
            defer { server.stop() }
            let live = try LiveCommand(["run", "-s", server.name, "-n", "tn", "--freq", "1500"] + (json ? ["--json"] : []))
            defer { live.stop() }
            func lines() -> [String] { live.stdout.split(separator: "\n").map(String.init) }
            func unconnected(_ line: String) -> Bool {
                json ? line.hasSuffix(#""invalid":false,"connected":false}"#) : line.hasSuffix("   in: not connected")
            }
            #expect(live.waitUntil(timeoutSeconds: 10) { _ in lines().count >= 5 }, "\(live.stderr)")
            #expect(lines().prefix(5).allSatisfy(unconnected), "\(lines().prefix(5))")
            let connect = try runCommand(["tn:out", "tn:in"], executable: "/usr/bin/jack_connect",
                                         environment: ["JACK_DEFAULT_SERVER": server.name])
            #expect(connect.status == 0, "\(connect.stderr)")
            let mark = lines().count
            #expect(live.waitUntil(timeoutSeconds: 10) { _ in
                lines().dropFirst(mark).filter { $0.contains("1500.0000 Hz") || $0.contains(#""freq_hz":1500"#) }.count >= 3
            }, "\(lines().suffix(5))")
            // Once a tone arrives, no line says "not connected" again.
            let firstTone = lines().firstIndex { $0.contains("1500.0000 Hz") || $0.contains(#""freq_hz":1500"#) } ?? 0
            #expect(!lines().dropFirst(firstTone).contains(where: unconnected))
        }
    }
}
