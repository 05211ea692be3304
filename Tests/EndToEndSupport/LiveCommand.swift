import Foundation
import Testing
import ToneJack

/// The one way the tests start a process: `tonenode`, a JACK example tool,
/// a shell. Started at `init`; the test then watches its output grow, writes
/// to its stdin, signals it and waits (bounded) for its exit status.
/// Released, it is stopped by PID (SIGTERM, then SIGKILL after the grace
/// time). `runCommand` runs one to completion.
///
/// stdout and stderr go to files read as they grow (`CapturedOutput`).
/// Test thread only.
public final class LiveCommand {
    /// What the process reads on stdin.
    public enum Input {
        /// /dev/null: it reads end of file at once.
        case none
        /// A pipe the test writes lines to (`send`) and closes (`closeInput`).
        case pipe
    }

    private let process = Process()
    private let input: Pipe?
    private let output = CapturedOutput(prefix: "tn-out")
    private let errors = CapturedOutput(prefix: "tn-err")
    private let stopGraceSeconds: Double
    /// What the failure messages call it.
    let commandLine: String

    /// Starts a process.
    /// - Parameters:
    ///   - executable: an absolute path, or the name of a built product
    ///     (`tonenode`), else of a tool in /usr/bin.
    ///   - environment: added to the test's own.
    ///   - stopGraceSeconds: how long `stop` waits after SIGTERM before SIGKILL.
    public init(_ arguments: [String], executable: String = "tonenode", environment: [String: String] = [:],
                input: Input = .none, stopGraceSeconds: Double = 2) throws {
        let path = Self.resolve(executable)
        commandLine = ([path] + arguments).joined(separator: " ")
        self.stopGraceSeconds = stopGraceSeconds
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardOutput = output.writer()
        process.standardError = errors.writer()
        switch input {
        case .none:
            self.input = nil
            process.standardInput = FileHandle.nullDevice
        case .pipe:
            let pipe = Pipe()
            // Close-on-exec, both ends: no other child (of this test or one
            // running beside it) may hold the write end, or `closeInput` would
            // never bring end of file. (The child's stdin is a dup2 copy.)
            for end in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
                _ = fcntl(end.fileDescriptor, F_SETFD, FD_CLOEXEC)
            }
            self.input = pipe
            process.standardInput = pipe
        }
        // Signals unblocked while it spawns, as from a shell (see `runWithSignalsUnblocked`).
        try process.runWithSignalsUnblocked()
    }

    /// One of jackd2's example clients (`jack_thru`, `jack_midiseq`, …) on
    /// `server`. They are given the server in $JACK_DEFAULT_SERVER, never with
    /// `-s`: jack_lsp 1.9.21 copies the `-s` argument into a buffer one byte
    /// short, and with some name lengths glibc aborts it. Stopped with a short
    /// grace (1 s): nothing of theirs needs a clean exit.
    public static func jackTool(_ executable: String, _ arguments: [String] = [], server: String) throws -> LiveCommand {
        try LiveCommand(arguments, executable: executable, environment: ["JACK_DEFAULT_SERVER": server],
                        stopGraceSeconds: 1)
    }

    deinit { stop() }

    private static func resolve(_ executable: String) -> String {
        if executable.hasPrefix("/") { return executable }
        let product = productsDirectory.appendingPathComponent(executable).path
        return FileManager.default.fileExists(atPath: product) ? product : "/usr/bin/\(executable)"
    }

    // MARK: - Watching

    public var processIdentifier: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var stdout: String { output.text }
    public var stderr: String { errors.text }
    /// Complete stdout lines so far, empty ones included.
    public var lineCount: Int { output.lines.count }
    /// Complete stdout lines from `index` on (a `lineCount` taken earlier).
    public func lines(from index: Int) -> ArraySlice<String> {
        let lines = output.lines
        return lines[min(index, lines.count)...]
    }
    /// The complete JSON lines on stdout so far.
    public var reports: [[String: Any]] { output.lines.compactMap(parseReport) }

    /// Polls until `condition` holds; false after `timeoutSeconds`.
    public func waitUntil(timeoutSeconds: Double, _ condition: (LiveCommand) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if condition(self) { return true }
            usleep(50_000)
        }
        return condition(self)
    }

    // MARK: - Talking to it

    /// Writes `text` and a newline to stdin (`input: .pipe`). Quietly does
    /// nothing once stdin is closed.
    public func send(_ text: String) {
        guard let input else {
            Issue.record("send(\(text)) to \(commandLine), started without `input: .pipe`")
            return
        }
        try? input.fileHandleForWriting.write(contentsOf: Data((text + "\n").utf8))
    }

    /// Closes stdin: the process reads end of file.
    public func closeInput() { try? input?.fileHandleForWriting.close() }

    /// Sends `signal` (SIGINT, SIGTERM, …) by PID.
    public func signal(_ signal: Int32) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
    }

    // MARK: - Ending

    /// Waits for the process to end; nil if it is still running after `timeoutSeconds`.
    public func exitStatus(timeoutSeconds: Double) -> (status: Int32, reason: Process.TerminationReason)? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason)
    }

    /// SIGTERM by PID, then SIGKILL if it has not exited within the grace
    /// time; returns once it has exited. Safe to call twice.
    public func stop() {
        process.terminateByPID(graceSeconds: stopGraceSeconds)
        closeInput()
    }

    // MARK: - Resources (from /proc)

    /// VmRSS, in bytes.
    public var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    public var openFileDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(processIdentifier)/fd").count) ?? 0
    }
}

/// Parses one `--json` report line.
public func parseReport(_ line: String) -> [String: Any]? {
    guard let data = line.data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    return object
}
