import Foundation
import Testing

/// The directory holding the built products (`tonenode`), next to the test bundle.
public var productsDirectory: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}

/// A process run to completion.
public struct CommandResult {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    /// False when it was stopped after `runCommand`'s timeout.
    public var finished = true
    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs a `LiveCommand` to completion, stdin at end of file. A hang is a
/// recorded failure (at the caller), not a stuck suite: after
/// `timeoutSeconds` the process is stopped and its output so far returned
/// (`finished` false). With `recordsTimeout` false the caller judges the
/// hang itself (one that retries a command the server may hold up).
public func runCommand(_ arguments: [String], executable: String = "tonenode", environment: [String: String] = [:],
                       timeoutSeconds: Double = 30, recordsTimeout: Bool = true,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
    let command = try LiveCommand(arguments, executable: executable, environment: environment)
    var exit = command.exitStatus(timeoutSeconds: timeoutSeconds)
    let finished = exit != nil
    if !finished {
        command.stop()
        if recordsTimeout {
            Issue.record("\(command.commandLine) did not finish within \(timeoutSeconds) s", sourceLocation: sourceLocation)
        }
        exit = command.exitStatus(timeoutSeconds: 0)
    }
    return CommandResult(status: exit?.status ?? -1, stdout: command.stdout, stderr: command.stderr, finished: finished)
}
