import ArgumentParser
import Foundation
import ToneAudioFile
import ToneCommandLine
import ToneCore
import ToneEngine
import ToneJack
import ToneCommandLine

/// `tonenode patch FILE.xml`: applies a qjackctl patchbay file without qjackctl.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Apply a qjackctl patchbay file (XML) to a running JACK server, without qjackctl.",
        discussion: """
            Client and plug names in the file are regular expressions anchored at \
            both ends, as in qjackctl. Each cable connects the output socket's plug i \
            to the input socket's plug i, for every matching port present now, \
            audio and MIDI. Prints one line per connection: "a -> b" made, \
            "a -> b (already connected)", and on stderr each cable that matches no \
            port present now (a client not running, a port missing). Other connections are \
            kept, except on the ports of a socket marked exclusive="on": those \
            are removed (one line each, "a -x b"). Exit status 1 when something in \
            the file could not be applied.
            """)

    @Argument(help: ArgumentHelp("The patchbay file.", valueName: "file.xml"))
    var file: String

    @OptionGroup var jackServer: ServerOption
    var server: String? { jackServer.server }

    func run() throws {
        if let problem = InputFileProblem.check(path: file) { throw PatchFileError.unreadable(path: file, problem: problem) }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw PatchFileError.unreadable(path: file, problem: .system("read error"))
        }
        let patchbay: Patchbay
        do {
            patchbay = try Patchbay.parse(data)
        } catch let error as PatchbayError {
            throw PatchFileError.invalid(path: file, problem: error)
        }
        let client = try JackClient(name: "tonenode-patch", serverName: server)
        defer { client.close() }
        let result = try client.apply(patchbay)
        for (source, destination) in result.connected {
            Console.out("\(source) -> \(destination)")
        }
        for (source, destination) in result.alreadyPresent {
            Console.out("\(source) -> \(destination) (already connected)")
        }
        for (source, destination) in result.disconnected {
            Console.out("\(source) -x \(destination)")
        }
        // PipeWire carries silence on a client's own out → in: say so for each such cable.
        for (source, destination) in result.connected + result.alreadyPresent where JackLibrary.isPipeWire {
            guard let sourceClient = source.lastIndex(of: ":").map({ source[..<$0] }),
                  destination.lastIndex(of: ":").map({ destination[..<$0] }) == sourceClient else { continue }
            Console.err("note: \(source) -> \(destination) carries silence under PipeWire (a client's own out to its own in); "
                        + "`tonenode run --loopback` runs its loop through a second client")
        }
        for problem in result.notPossible {
            Console.err("not applied: " + problem)
        }
        if !result.notPossible.isEmpty {
            Console.err("error: \(result.notPossible.count) cable plug(s) of \(file) could not be applied")
            throw ExitCode.failure
        }
    }
}
