import Foundation
import Testing
import ToneCore
import ToneEngine
import ToneJack
// SplitMix64 (seeded random cases) comes from ToneTestSupport, shared with the benchmarks.
@_exported import ToneTestSupport

/// A private `jackd` (dummy backend) for one test, stopped by PID when released.
func startServer(periodFrames: Int = 256, sampleRateHz: Int = 48000,
                 name: String = "tn-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                 driverArguments: [String] = []) throws -> PrivateJackServer {
    return try PrivateJackServer(name: name, sampleRateHz: sampleRateHz, periodFrames: periodFrames,
                                 logFile: NSTemporaryDirectory() + "\(name).log", driverArguments: driverArguments)
}

/// The directory holding the built products (`tonenode`), next to the test bundle.
var productsDirectory: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}

/// Result of running a command to completion.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs `tonenode` (or another executable) with a time limit; a hang is a failure, not a stuck suite.
func runCommand(_ arguments: [String], executable: String = "tonenode", environment: [String: String] = [:],
                timeoutSeconds: Double = 30) throws -> CommandResult {
    let process = Process()
    let path = executable.hasPrefix("/") ? executable : productsDirectory.appendingPathComponent(executable).path
    process.executableURL = URL(fileURLWithPath: FileManager.default.fileExists(atPath: path) ? path : "/usr/bin/\(executable)")
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let outFile = NSTemporaryDirectory() + "tn-out-\(UUID().uuidString)"
    let errFile = NSTemporaryDirectory() + "tn-err-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: outFile, contents: nil)
    _ = FileManager.default.createFile(atPath: errFile, contents: nil)
    defer {
        try? FileManager.default.removeItem(atPath: outFile)
        try? FileManager.default.removeItem(atPath: errFile)
    }
    process.standardOutput = FileHandle(forWritingAtPath: outFile)
    process.standardError = FileHandle(forWritingAtPath: errFile)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
        Issue.record("\(executable) \(arguments) did not finish within \(timeoutSeconds) s")
    }
    process.waitUntilExit()
    let out = (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? ""
    let err = (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? ""
    return CommandResult(status: process.terminationStatus, stdout: out, stderr: err)
}

/// A long-running helper process (a JACK example client), stopped by PID.
final class BackgroundProcess {
    let process = Process()

    init(_ executable: String, _ arguments: [String], server: String) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["JACK_DEFAULT_SERVER"] = server
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// jack_thru, for one, does not always exit on SIGTERM: SIGKILL after 1 s.
    deinit { process.terminateByPID(graceSeconds: 1) }
}

/// Settings for a test node on `server` (FFTW plans by estimate: fast start).
func nodeSettings(_ server: PrivateJackServer, client: String) -> NodeSettings {
    var settings = NodeSettings()
    settings.serverName = server.name
    settings.clientName = client
    settings.planning = .estimate
    return settings
}

// jackd2's example tools are given the server in $JACK_DEFAULT_SERVER, never
// with `-s`: jack_lsp 1.9.21 copies the `-s` argument into a buffer one byte
// short, and with some name lengths glibc aborts it ("malloc assertion failure").

/// Waits (bounded) until a port exists on the server (or, `toExist: false`, is gone).
func waitForPort(_ port: String, server: String, toExist: Bool = true, timeoutSeconds: Double = 5) throws {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    var last: CommandResult?
    while Date() < deadline {
        let result = try runCommand([], executable: "/usr/bin/jack_lsp", environment: ["JACK_DEFAULT_SERVER": server],
                                    timeoutSeconds: 5)
        if result.stdoutLines.contains(port) == toExist { return }
        last = result
        usleep(50_000)
    }
    let lsp = last.map { "status \($0.status), \($0.stdout) \($0.stderr)" } ?? ""
    Issue.record("port \(port) did not \(toExist ? "appear on" : "vanish from") \(server); jack_lsp: \(lsp)")
}

/// Every port on the server and the ports it is connected to (`jack_lsp -c`).
func connectionsOnServer(_ server: String) throws -> [String: Set<String>] {
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

/// Parses one `--json` report line.
func parseReport(_ line: String) -> [String: Any]? {
    guard let data = line.data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    return object
}

/// Every test that talks to a JACK server runs in this serialized suite.
/// libjack (jackd2) keeps one shared-memory registry per process, so clients
/// in one process must not talk to two different servers at the same time;
/// each test starts its own server, so they take turns.
@Suite("Against real JACK servers", .serialized)
struct JackServerTests {}

/// A `tonenode` (or other) process left running while the test watches its
/// output grow; killed by PID when released.
final class LiveCommand {
    let process = Process()
    private let outFile = NSTemporaryDirectory() + "tn-live-out-\(UUID().uuidString)"
    private let errFile = NSTemporaryDirectory() + "tn-live-err-\(UUID().uuidString)"

    /// `environment` adds to the test's own; `input`, when given, is the process's stdin.
    init(_ arguments: [String], executable: String = "tonenode", environment: [String: String] = [:],
         input: Pipe? = nil) throws {
        process.executableURL = productsDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        _ = FileManager.default.createFile(atPath: outFile, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outFile)
        process.standardError = FileHandle(forWritingAtPath: errFile)
        if let input { process.standardInput = input } else { process.standardInput = FileHandle.nullDevice }
        try process.run()
    }

    deinit {
        process.terminateByPID(graceSeconds: 2)
        try? FileManager.default.removeItem(atPath: outFile)
        try? FileManager.default.removeItem(atPath: errFile)
    }

    var stdout: String { (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "" }
    /// Complete JSON lines so far.
    var reports: [[String: Any]] { stdout.split(separator: "\n").compactMap { parseReport(String($0)) } }

    /// Polls until `condition` holds; false after `timeoutSeconds`.
    func waitUntil(timeoutSeconds: Double, _ condition: (LiveCommand) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if condition(self) { return true }
            usleep(50_000)
        }
        return condition(self)
    }

    /// Waits for the process to end; nil if it is still running after `timeoutSeconds`.
    func exitStatus(timeoutSeconds: Double) -> (status: Int32, reason: Process.TerminationReason)? {
        guard waitUntil(timeoutSeconds: timeoutSeconds, { !$0.process.isRunning }) else { return nil }
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason)
    }
}


/// A figure a test measured, printed so the run shows it (README quotes them).
