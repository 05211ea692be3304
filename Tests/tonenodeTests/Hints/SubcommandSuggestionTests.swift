import Testing
@testable import tonenode

/// A mistyped subcommand is one line with the nearest name; a real one, an
/// option or `help` leaves the command line to ArgumentParser as before.
@Suite("Subcommand suggestions")
struct SubcommandSuggestionTests {
    static let names = SubcommandSuggestion.names(of: ToneNodeCommand.self)

    @Test("every subcommand is known by its name")
    func names() {
        #expect(Self.names == ["run", "analyze", "measure", "demo", "patch", "encode", "decode", "send", "receive",
                               "link", "audit"])
    }

    @Test("a near miss gets 'Did you mean'", arguments: [
        ("mesure", "measure"), ("Measure", "measure"), ("recieve", "receive"), ("rnu", "run"), ("meas", "measure"),
        ("anlyze", "analyze"), ("audti", "audit"), ("lnik", "link"), ("decod", "decode"), ("sned", "send"),
    ])
    func nearMiss(typed: String, meant: String) {
        #expect(SubcommandSuggestion.problem(arguments: [typed, "-s", "ux1"], subcommands: Self.names)
                == "Unknown subcommand '\(typed)'. Did you mean '\(meant)'?")
    }

    @Test("a word near none lists them all")
    func farMiss() {
        #expect(SubcommandSuggestion.problem(arguments: ["play"], subcommands: Self.names)
                == "Unknown subcommand 'play'. Subcommands: run, analyze, measure, demo, patch, encode, decode, send, "
                + "receive, link, audit")
    }

    @Test("subcommands, help, options and nothing pass through", arguments: [
        ["measure", "-s", "ux1"], ["help", "measure"], ["--help"], ["--version"], [], ["run"], ["audit", "--help"],
    ])
    func passThrough(arguments: [String]) {
        #expect(SubcommandSuggestion.problem(arguments: arguments, subcommands: Self.names) == nil)
    }
}
