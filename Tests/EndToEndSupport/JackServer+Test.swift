import Foundation
import Testing
import ToneJack

/// A private `jackd` (dummy backend) for one test, stopped by PID when released.
public func startServer(periodFrames: Int = 256, sampleRateHz: Int = 48000,
                        name: String = "tn-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                        driverArguments: [String] = [], realtime: Bool = false) throws -> PrivateJackServer {
    try PrivateJackServer(name: name, sampleRateHz: sampleRateHz, periodFrames: periodFrames,
                          logFile: NSTemporaryDirectory() + "\(name).log", driverArguments: driverArguments,
                          realtime: realtime)
}

// jackd2's example tools are given the server in $JACK_DEFAULT_SERVER, never
// with `-s` (see `LiveCommand.jackTool`).

/// Waits (bounded) until a port exists on the server (or, `toExist: false`, is
/// gone); a recorded failure (at the caller) when it does not.
public func waitForPort(_ port: String, server: String, toExist: Bool = true, timeoutSeconds: Double = 5,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    var last: CommandResult?
    while Date() < deadline {
        let result = try runCommand([], executable: "/usr/bin/jack_lsp", environment: ["JACK_DEFAULT_SERVER": server],
                                    timeoutSeconds: 5, sourceLocation: sourceLocation)
        if result.stdoutLines.contains(port) == toExist { return }
        last = result
        usleep(50_000)
    }
    let lsp = last.map { "status \($0.status), \($0.stdout) \($0.stderr)" } ?? ""
    Issue.record("port \(port) did not \(toExist ? "appear on" : "vanish from") \(server); jack_lsp: \(lsp)",
                 sourceLocation: sourceLocation)
}

/// Every port on the server and the ports it is connected to (`jack_lsp -c`).
public func connectionsOnServer(_ server: String) throws -> [String: Set<String>] {
    var connections: [String: Set<String>] = [:]
    var current = ""
    for line in try runCommand(["-c"], executable: "/usr/bin/jack_lsp",
                               environment: ["JACK_DEFAULT_SERVER": server]).stdoutLines {
        if line.hasPrefix("   ") {
            connections[current, default: []].insert(String(line.dropFirst(3)))
        } else {
            current = line
            connections[current, default: []] = connections[current] ?? []
        }
    }
    return connections
}
