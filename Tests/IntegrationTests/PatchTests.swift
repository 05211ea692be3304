import CJack
import Foundation
import Testing
import ToneJack

/// A JACK client that only owns ports (no process callback), standing in for
/// a tool in the graph. Not part of the product.
final class PortHolder {
    let client: OpaquePointer

    init(name: String, server: String, inputs: [String], outputs: [String]) throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = tn_client_open(name, JackNoStartServer, &status, server) else {
            throw JackError.serverUnreachable(server: server)
        }
        self.client = client
        for port in inputs { _ = jack_port_register(client, port, JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0) }
        for port in outputs { _ = jack_port_register(client, port, JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0) }
        guard jack_activate(client) == 0 else { throw JackError.activationFailed }
    }

    deinit { jack_client_close(client) }
}

/// Every connection on the server as "source -> destination", read back with `jack_lsp -c`'s twin, the JACK API.
func allConnections(server: String) throws -> Set<String> {
    let observer = try JackClient(name: "observer", serverName: server)
    defer { observer.close() }
    return Set(observer.connectionList().map { "\($0.0) -> \($0.1)" })
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
            let node = try PortHolder(name: "tonenode", server: server.name, inputs: ["in"], outputs: ["out"])
            let decoy = try PortHolder(name: "tonenode2", server: server.name, inputs: ["in"], outputs: ["out"])
            let result = try runCommand(["patch", "-s", server.name, patchesDirectory + "/selftest-loopback.xml"])
            #expect(result.status == 0, "\(result.stderr)")
            // Anchored: "tonenode" must not match "tonenode2".
            #expect(try allConnections(server: server.name) == ["tonenode:out -> tonenode:in"])
            withExtendedLifetime((node, decoy)) {}
        }

        @Test func chainGoesThroughTheToolUnderTest() throws {
            let server = try startServer()
            let node = try PortHolder(name: "tonenode", server: server.name, inputs: ["in"], outputs: ["out"])
            let tool = try PortHolder(name: "dut", server: server.name, inputs: ["input"], outputs: ["output"])
            let result = try runCommand(["patch", "-s", server.name, patchesDirectory + "/chain-through-dut.xml"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try allConnections(server: server.name) == ["tonenode:out -> dut:input", "dut:output -> tonenode:in"])
            withExtendedLifetime((node, tool)) {}
        }

        @Test func monitoringFeedsCaptureOneToBothPlaybacks() throws {
            let server = try startServer()
            let result = try runCommand(["patch", "-s", server.name, patchesDirectory + "/monitor-capture.xml"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try allConnections(server: server.name)
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
