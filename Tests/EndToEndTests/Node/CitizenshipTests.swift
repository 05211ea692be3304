import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    @Suite("A good JACK citizen")
    struct CitizenshipTests {
        @Test("pretty names on the client and both ports while it runs, gone after it exits")
        func prettyNamesComeAndGo() throws {
            // Under a uid of its own: the metadata store is the user's, shared with every other server's clients.
            let jack = try OwnUserJack(slot: 0)
            defer { jack.stop() }
            let node = try jack.tonenode(["run", "-s", jack.serverName, "-n", "citizen", "--hop", "4096"])
            defer { node.stop() }
            try jack.waitForPort("citizen:out")
            var names: [String] = []
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                names = try jack.prettyNames()
                if names.count >= 4 { break }
                usleep(50_000)
            }
            #expect(Set(names) == ["ToneNode", "ToneNode analyser input", "ToneNode tone output", "ToneNode MIDI input"],
                    "\(names)")
            node.stop()
            try jack.waitForPort("citizen:out", toExist: false)
            #expect(try jack.prettyNames().isEmpty, "metadata removed on exit; stderr: \(node.stderr)")
        }

        @Test("the analysis worker runs niced, below JACK's threads")
        func workerIsNiced() throws {
            let server = try startServer()
            defer { server.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "nicety", "--hop", "4096"], input: .pipe)
            defer { node.stop() }
            try waitForPort("nicety:out", server: server.name)
            // Every thread's nice value (field 19 of /proc/PID/task/TID/stat, after the command in parentheses).
            let tasks = "/proc/\(node.processIdentifier)/task"
            let niceValues = try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap { tid -> Int? in
                guard let stat = try? String(contentsOfFile: "\(tasks)/\(tid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return nil }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return fields.count > 16 ? Int(fields[16]) : nil
            }
            #expect(niceValues.filter { $0 == 10 }.count == 1, "one worker at nice 10: \(niceValues)")
            #expect(niceValues.filter { $0 >= 1 && $0 != 10 }.isEmpty, "\(niceValues)")
        }
    }
}
