import Foundation
import Testing

/// A running `tonenode run` under the given client name (ports `in`, `out`), waited for until its ports exist.
func liveNode(_ name: String, server: String) throws -> LiveCommand {
    let node = try LiveCommand(["run", "-s", server, "-n", name, "--mute"])
    try waitForPort("\(name):out", server: server)
    return node
}

/// Every connection on the server as "output -> input", read back with `jack_lsp -c`.
func connectionSet(server: String) throws -> Set<String> {
    // `jack_lsp -p`: each port line is followed by "\tproperties: output,…" or "input,…".
    var outputs = Set<String>()
    var port = ""
    for line in try runCommand(["-p"], executable: "/usr/bin/jack_lsp",
                               environment: ["JACK_DEFAULT_SERVER": server]).stdoutLines {
        if line.hasPrefix("\t") || line.hasPrefix(" ") {
            if line.contains("properties: output") { outputs.insert(port) }
        } else {
            port = line
        }
    }
    var result = Set<String>()
    for (port, peers) in try connectionsOnServer(server) where outputs.contains(port) {
        for peer in peers { result.insert("\(port) -> \(peer)") }
    }
    return result
}

var patchesDirectory: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("patches").path
}

extension JackServerTests {
    @Suite("tonenode patch applies qjackctl patchbay files")
    struct PatchTests {
        @Test func selfTestLoopbackConnectsOutToIn() throws {
            let server = try startServer()
            let node = try liveNode("tonenode", server: server.name)
            let decoy = try liveNode("tonenode2", server: server.name)
            let result = try runCommand(["patch", "-s", server.name, patchesDirectory + "/selftest-loopback.xml"])
            #expect(result.status == 0, "\(result.stderr)")
            // Anchored: "tonenode" must not match "tonenode2".
            #expect(try connectionSet(server: server.name) == ["tonenode:out -> tonenode:in"])
            withExtendedLifetime((node, decoy)) {}
        }

        @Test func chainGoesThroughTheToolUnderTest() throws {
            let server = try startServer()
            let node = try liveNode("tonenode", server: server.name)
            let tool = try liveNode("dut", server: server.name)
            let result = try runCommand(["patch", "-s", server.name, patchesDirectory + "/chain-through-dut.xml"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try connectionSet(server: server.name) == ["tonenode:out -> dut:in", "dut:out -> tonenode:in"])
            withExtendedLifetime((node, tool)) {}
        }

        @Test func monitoringFeedsCaptureOneToBothPlaybacks() throws {
            let server = try startServer()
            let result = try runCommand(["patch", "-s", server.name, patchesDirectory + "/monitor-capture.xml"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try connectionSet(server: server.name)
                    == ["system:capture_1 -> system:playback_1", "system:capture_1 -> system:playback_2"])
        }

        @Test func aBrokenFileIsOneErrorLine() throws {
            let server = try startServer()
            let path = NSTemporaryDirectory() + "tn-broken-\(getpid()).xml"
            try "<patchbay><cables><cable output=\"x\" input=\"y\"/></cables></patchbay>".write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try runCommand(["patch", "-s", server.name, path])
            #expect(result.status == 1)
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.contains("error:"))
        }
    }
}
