import EndToEndSupport
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

/// The repository's `patches/`: the nearest folder above this file that has one.
var patchesDirectory: String {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("patches").path) {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("patches").path
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

        @Test("each connection made, already present, or not possible; exit 1 when something could not be applied")
        func reportsWhatItCouldNotApply() throws {
            let server = try startServer()
            let node = try liveNode("tonenode", server: server.name)
            let path = patchesDirectory + "/chain-through-dut.xml"
            // No "dut" running: nothing of the file can be applied.
            let missing = try runCommand(["patch", "-s", server.name, path])
            #expect(missing.status == 1)
            #expect(missing.stdout.isEmpty)
            #expect(missing.stderrLines.contains(
                "tonenode: not applied: cable \"tonenode out\" -> \"dut in\": no client matches dut (is it running?)"),
                    "\(missing.stderr)")
            #expect(missing.stderrLines.last?.hasPrefix("tonenode: error: 2 cable plug(s) of ") == true, "\(missing.stderr)")
            let tool = try liveNode("dut", server: server.name)
            let made = try runCommand(["patch", "-s", server.name, path])
            #expect(made.status == 0, "\(made.stderr)")
            #expect(made.stdoutLines == ["tonenode:out -> dut:in", "dut:out -> tonenode:in"])
            let again = try runCommand(["patch", "-s", server.name, path])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdoutLines == ["tonenode:out -> dut:in (already connected)", "dut:out -> tonenode:in (already connected)"])
            withExtendedLifetime((node, tool)) {}
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

extension JackServerTests {
    @Suite("tonenode patch: exclusive sockets and MIDI")
    struct PatchExclusiveTests {
        /// A patchbay: dut:out → tonenode:in (exclusive on the input side) and seq:out → tonenode:midi_in (MIDI).
        static let file = """
            <!DOCTYPE patchbay>
            <patchbay version="0.9.0" name="exclusive">
             <output-sockets>
              <socket exclusive="off" client="dut" type="jack-audio" name="dut out"><plug>out</plug></socket>
              <socket exclusive="off" client="seq" type="jack-midi" name="seq out"><plug>out</plug></socket>
             </output-sockets>
             <input-sockets>
              <socket exclusive="on" client="tonenode" type="jack-audio" name="tonenode in"><plug>in</plug></socket>
              <socket exclusive="off" client="tonenode" type="jack-midi" name="tonenode midi"><plug>midi_in</plug></socket>
             </input-sockets>
             <cables>
              <cable output="dut out" input="tonenode in" type="jack-audio"/>
              <cable output="seq out" input="tonenode midi" type="jack-midi"/>
             </cables>
            </patchbay>
            """

        @Test("an exclusive socket keeps only the file's connections; MIDI cables are applied; other ports are left alone")
        func exclusiveAndMIDI() throws {
            let server = try startServer()
            defer { server.stop() }
            let node = try liveNode("tonenode", server: server.name)
            let dut = try liveNode("dut", server: server.name)
            let other = try liveNode("other", server: server.name)
            let seq = try LiveCommand.jackTool("/usr/bin/jack_midiseq", ["seq", "48000", "0", "69", "24000"],
                                               server: server.name)
            try waitForPort("seq:out", server: server.name)
            let env = ["JACK_DEFAULT_SERVER": server.name]
            for (a, b) in [("other:out", "tonenode:in"), ("other:out", "dut:in"), ("tonenode:out", "other:in")] {
                #expect(try runCommand([a, b], executable: "/usr/bin/jack_connect", environment: env).status == 0)
            }
            let path = NSTemporaryDirectory() + "tn-exclusive-\(getpid()).xml"
            try Self.file.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try runCommand(["patch", "-s", server.name, path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdoutLines.contains("other:out -x tonenode:in"), "\(result.stdout)")
            #expect(result.stdoutLines.contains("seq:out -> tonenode:midi_in"), "\(result.stdout)")
            #expect(try connectionSet(server: server.name) == [
                "dut:out -> tonenode:in", "seq:out -> tonenode:midi_in",
                "other:out -> dut:in", "tonenode:out -> other:in",
            ])
            withExtendedLifetime((node, dut, other, seq)) {}
        }
    }
}
