import EndToEndSupport
import Foundation
import Testing

/// Mistakes on the command line that point at the fix, in one line each:
/// a mistyped subcommand names the nearest one (64); a file that cannot be
/// written names the path and why, the same for every option that writes a
/// file (1, before any work: `measure` does not measure first).
@Suite("mistakes get one line that points at the fix")
struct HintLineTests {
    static let environment = ["JACK_DEFAULT_SERVER": "tn-none-\(getpid())"]

    @Test("a mistyped subcommand: 'Did you mean', exit 64", arguments: [
        (["mesure", "-s", "ux1"], "tonenode: error: Unknown subcommand 'mesure'. Did you mean 'measure'?"),
        (["mesure"], "tonenode: error: Unknown subcommand 'mesure'. Did you mean 'measure'?"),
        (["recieve", "--json"], "tonenode: error: Unknown subcommand 'recieve'. Did you mean 'receive'?"),
        (["play"], "tonenode: error: Unknown subcommand 'play'. Subcommands: run, analyze, measure, demo, patch, encode, "
            + "decode, send, receive, link, audit"),
    ])
    func subcommandTypo(arguments: [String], line: String) throws {
        let result = try runCommand(arguments, environment: Self.environment, timeoutSeconds: 20)
        #expect(result.status == 64)
        #expect(result.stderrLines == [line])
        #expect(result.stdout.isEmpty)
    }

    @Test("help and a bad option of a real subcommand are as before")
    func realSubcommandUnchanged() throws {
        let help = try runCommand(["help", "measure"], environment: Self.environment)
        #expect(help.status == 0 && help.stdout.contains("USAGE: tonenode measure"))
        let option = try runCommand(["measure", "--frq", "1"], environment: Self.environment)
        #expect(option.status == 64)
        #expect(option.stderrLines.first?.hasPrefix("tonenode: error: Unknown option '--frq'") == true, "\(option.stderr)")
    }

    static let missingDirectory = "/nonexistent-\(getpid())/dir"

    @Test("a file that cannot be written: one line naming it, exit 1, for every option that writes one", arguments: [
        ["measure", "--plot", missingDirectory + "/x.svg"],
        ["link", "--plot", missingDirectory + "/x.svg"],
        ["analyze", "/dev/null", "--plot", missingDirectory + "/x.svg"],
        ["encode", "hi", "-o", missingDirectory + "/x.wav"],
    ])
    func unwritable(arguments: [String]) throws {
        let path = arguments.first { $0.hasPrefix(Self.missingDirectory) } ?? ""
        let result = try runCommand(arguments, environment: Self.environment, timeoutSeconds: 20)
        #expect(result.status == 1)
        #expect(result.stderrLines == ["tonenode: error: cannot write \(path): no such directory \(Self.missingDirectory)"])
        #expect(result.stdout.isEmpty)
    }
}
