import EndToEndSupport
import Foundation
import Testing
import ToneCore
import ToneEngine
import ToneJack

extension JackServerTests {
    @Suite("The graph changes under a running node")
    struct GraphChangeTests {
        @Test("jack_bufsize to 32, 4096 and back: the node keeps reading its own tone exactly, no restart")
        func bufferSizeChanges() async throws {
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            var settings = nodeSettings(server, client: "elastic")
            settings.frequencyHz = 4321.0
            settings.loopback = true
            let node = try Node(settings: settings)
            defer { node.stop() }
            for periodFrames in [32, 4096, 256] {
                let changed = try runCommand([String(periodFrames)], executable: "/usr/bin/jack_bufsize",
                                             environment: ["JACK_DEFAULT_SERVER": server.name])
                #expect(changed.status == 0, "jack_bufsize: \(changed.stderr)")
                #expect(node.client.bufferFrames == periodFrames)
                let from = node.renderedFrames + 2 * periodFrames + 4096
                let readings = await collectReadings(node, afterFrames: from, count: 4)
                #expect(readings.count == 4, "period \(periodFrames)")
                for reading in readings { #expect(abs((reading.frequencyHz ?? 0) - 4321) < 0.001, "period \(periodFrames)") }
            }
        }
    
        @Test("clients come and go and rewire our ports 10 times: the node keeps running and reads what reaches it")
        func rewiring() async throws {
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            var settings = nodeSettings(server, client: "steady")
            settings.frequencyHz = 777
            let node = try Node(settings: settings)
            defer { node.stop() }
            let environment = ["JACK_DEFAULT_SERVER": server.name]
            for round in 0..<10 {
                do {
                    let visitor = try LiveCommand.jackTool("/usr/bin/jack_thru", server: server.name)
                    defer { _ = visitor }
                    try waitForPort("jack_thru:output_1", server: server.name)
                    for (tool, ports) in [("jack_connect", ["jack_thru:output_1", "steady:in"]),
                                          ("jack_connect", ["steady:out", "jack_thru:input_1"]),
                                          ("jack_disconnect", ["jack_thru:output_1", "steady:in"]),
                                          ("jack_connect", ["steady:out", "steady:in"])] {
                        let result = try runCommand(ports, executable: "/usr/bin/\(tool)", environment: environment)
                        #expect(result.status == 0, "round \(round): \(tool) \(ports): \(result.stderr)")
                    }
                }
                // The visitor has gone, with a connection to our out still in place.
                try waitForPort("jack_thru:output_1", server: server.name, toExist: false)
                let disconnect = try runCommand(["steady:out", "steady:in"], executable: "/usr/bin/jack_disconnect",
                                                environment: environment)
                #expect(disconnect.status == 0)
            }
            #expect(try connectionsOnServer(server.name)["steady:in"] == [])
            // Finally our own tone, looped back, is read exactly.
            try node.client.connect(from: node.outputPortName, to: node.inputPortName)
            let from = node.renderedFrames + 2 * server.periodFrames
            let readings = await collectReadings(node, afterFrames: from, count: 4)
            #expect(readings.count == 4)
            for reading in readings { #expect(abs((reading.frequencyHz ?? 0) - 777) < 0.001) }
        }
    }
}
