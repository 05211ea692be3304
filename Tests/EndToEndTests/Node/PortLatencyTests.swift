import EndToEndSupport
import Foundation
import Testing

/// Latency ranges as `jack_lsp -l` prints them: port → (playback, capture), each [min, max].
func publishedLatencies(server: String) throws -> [String: (playback: [Int], capture: [Int])] {
    var result: [String: (playback: [Int], capture: [Int])] = [:]
    var port = ""
    func range(_ line: String) -> [Int] {
        guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") else { return [] }
        return line[line.index(after: open)..<close].split(separator: " ").compactMap { Int($0) }
    }
    for line in try runCommand(["-l"], executable: "/usr/bin/jack_lsp",
                               environment: ["JACK_DEFAULT_SERVER": server]).stdoutLines {
        if line.contains("port playback latency") {
            result[port, default: ([], [])].playback = range(line)
        } else if line.contains("port capture latency") {
            result[port, default: ([], [])].capture = range(line)
        } else if !line.hasPrefix("\t") && !line.hasPrefix(" ") {
            port = line
        }
    }
    return result
}

extension JackServerTests {
    @Suite("Ports are terminal and publish their own latency as zero")
    struct PortLatencyTests {
        /// Between system:capture (256 frames of capture latency) and
        /// system:playback (512 of playback latency), JACK's default would
        /// pass 256 on to our `out` and 512 back to our `in`, as if audio
        /// flowed through the node. The latency callback keeps both at 0.
        @Test func runPublishesZeroOnItsOwnSide() throws {
            let server = try startServer(periodFrames: 256)
            let node = try LiveCommand(["run", "-s", server.name, "-n", "lat", "--mute",
                                        "--connect-in", "system:capture_1", "--connect-out", "system:playback_1"])
            try waitForPort("lat:out", server: server.name)
            var latencies = try publishedLatencies(server: server.name)
            // Connections are made just after the ports appear: wait for them to count.
            let deadline = Date().addingTimeInterval(5)
            while latencies["lat:in"]?.capture != [256, 256] && Date() < deadline {
                usleep(50_000)
                latencies = try publishedLatencies(server: server.name)
            }
            #expect(latencies["lat:in"]?.capture == [256, 256], "upstream capture latency reaches `in`")
            #expect(latencies["lat:out"]?.playback == [512, 512], "downstream playback latency reaches `out`")
            #expect(latencies["lat:out"]?.capture == [0, 0], "our output is a source: nothing upstream of it")
            #expect(latencies["lat:in"]?.playback == [0, 0], "our input is a sink: nothing downstream of it")
            withExtendedLifetime(node) {}
        }
    }
}
