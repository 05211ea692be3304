import EndToEndSupport
import Testing

/// `--help` is short with the options near the top: swift-argument-parser
/// prints a command's discussion before its options, so each discussion is a
/// few lines that point to the command's docs page, where the long text lives.
@Suite("--help texts are short and point to their docs page")
struct HelpTextTests {
    @Test("the discussion before USAGE is a few lines and names the guide",
          arguments: [("run", "run.md"), ("link", "network.md"), ("audit", "network.md"), ("send", "messages.md"),
                      ("receive", "messages.md"), ("measure", "measure.md")])
    func shortDiscussion(command: String, page: String) throws {
        let help = try runCommand([command, "--help"])
        #expect(help.status == 0)
        let lines = help.stdoutLines
        guard let usage = lines.firstIndex(where: { $0.hasPrefix("USAGE:") }) else {
            Issue.record("no USAGE line in \(command) --help"); return
        }
        let before = lines[..<usage].filter { !$0.isEmpty }
        #expect(before.count <= 10, "\(command) --help has \(before.count) lines before USAGE")
        #expect(before.joined(separator: " ").contains(page), "\(command) --help does not name \(page)")
    }
}
