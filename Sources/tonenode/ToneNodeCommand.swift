import ArgumentParser
import Foundation
import ToneJack
import ToneCommandLine
import ToneFileCommands

@main
struct ToneNodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tonenode",
        abstract: "A real-time JACK node that plays tones and identifies the tones it hears.",
        discussion: """
            `run` is the node: a sine on port `out`, a report of what arrives on \
            port `in`. `analyze` runs the same detector on a file. `measure` plays \
            a sweep and a tone through a chain and reports its latency, gain, \
            THD+N and frequency response. `demo` wires the \
            node to itself (starting a private dummy JACK server if none is running) \
            and checks that every tone it plays is identified. `patch` applies a \
            qjackctl patchbay file. `encode` writes a message as tones into an audio file; \
            `decode` prints the messages found in an audio file; `send` and \
            `receive` do the same live, through JACK ports. `link` measures a JACK \
            link across a network bridge (round trip, or one way with --listen); \
            `audit` compares each path between given ports: measured latency against what its ports report.
            Exit status: 0 success; 1 runtime error (no JACK server, unreadable or \
            bad input file, nothing detected or nothing heard); 2 `link` or `audit` \
            outside its limits; 64 bad command-line option; 128+N stopped by signal N \
            (130 for Ctrl-C; `run`, `receive`, `link` and `demo` end with 0 instead). \
            `--version` names the git commit only for binaries built by scripts/install \
            or scripts/package-deb (a plain `swift build` says it is unknown).
            """,
        // The commit is known only to binaries installed by scripts/install or scripts/package-deb.
        version: BuildInfo.versionLine,
        subcommands: [RunCommand.self, AnalyzeCommand.self, MeasureCommand.self, DemoCommand.self,
                      PatchCommand.self, EncodeCommand.self, DecodeCommand.self,
                      SendCommand.self, ReceiveCommand.self, LinkCommand.self, AuditCommand.self])

    /// Like ArgumentParser's `main`, but a bad option is one line on stderr
    /// (no usage dump), so scripts and people see just the reason.
    static func main() async {
        // The metadata helper a node starts (hidden from --help): nothing else of tonenode runs in it.
        if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == MetadataHelper.subcommand {
            MetadataHelper.main(arguments: Array(CommandLine.arguments.dropFirst(2)))
        }
        // A closed stdout is EPIPE in Console (status 141, quietly), not a signal.
        signal(SIGPIPE, SIG_IGN)
        // One signal mechanism for every command, before any of them runs.
        SignalWatcher.install()
        JackClient.metadataWarnings { Console.err($0) }
        JackClient.useMetadataHelper(executable: "/proc/self/exe")
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = SubcommandSuggestion.problem(arguments: arguments, subcommands: SubcommandSuggestion.names(of: self)) {
            Console.err("error: " + problem)
            end(status: ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            end(status: SignalWatcher.interruptedStatus ?? Console.outputFailureStatus ?? 0)
        } catch {
            // Interrupted by a signal: it unwound (closing its client) to end
            // with 128 + the signal, quietly, like any Unix tool.
            if let status = SignalWatcher.interruptedStatus { end(status: status) }
            let code = exitCode(for: error)
            if code == .success || error is CleanExit {
                exit(withError: error)
            }
            // A failed stdout already said its line (or, EPIPE, nothing), and decides the status.
            if let status = Console.outputFailureStatus { end(status: status) }
            let message = message(for: error)
            if !message.isEmpty { Console.err("error: " + message) }
            end(status: code.rawValue)
        }
    }

    /// Exits with `status`; with `_exit` when a JACK metadata helper is still
    /// stuck in the store, or a close still waits for the server's own metadata
    /// clean-up (exit-time clean-up in libjack could wait on it too).
    static func end(status: Int32) -> Never {
        TerminalLine.restore()
        JackClient.finishMetadata()
        if JackClient.metadataIsStuck { _exit(status) }
        Glibc.exit(status)
    }
}
