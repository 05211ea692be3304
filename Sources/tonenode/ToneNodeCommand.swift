import ArgumentParser

@main
struct ToneNodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tonenode",
        abstract: "A real-time JACK node that plays tones and identifies the tones it hears.",
        discussion: """
            `run` is the node: a sine on port `out`, a report of what arrives on \
            port `in`. `analyze` runs the same detector on a file. `demo` wires the \
            node to itself (starting a private dummy JACK server if none is running) \
            and checks that every tone it plays is identified.
            """,
        subcommands: [RunCommand.self, AnalyzeCommand.self, DemoCommand.self])
}
