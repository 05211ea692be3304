import EndToEndSupport
import Foundation
import Testing
import ToneCore
import ToneEngine
import ToneJack

extension JackServerTests {
    @Suite("Controlling a running node on stdin")
    struct StdinControlTests {
        @Test("good lines retune it; bad lines are one error line each and change nothing")
        func stdinControl() throws {
            let server = try startServer()
            defer { server.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "ctl", "--json", "--hop", "2048",
                                        "--connect-out", "ctl:in"], input: .pipe)
            defer { node.stop() }
            func readsExactly(_ hz: Double, level: Double, after index: Int) -> Bool {
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline {
                    let hits = node.lines(from: index).compactMap(parseReport).filter {
                        abs(($0["freq_hz"] as? Double ?? 0) - hz) < 0.001 && abs(($0["level_dbfs"] as? Double ?? 0) - level) < 0.01
                    }
                    if hits.count >= 2 { return true }
                    usleep(20_000)
                }
                return false
            }
            #expect(readsExactly(1000, level: -18, after: 0))
            var mark = node.lineCount
            node.send("freq 880")
            node.send("level -6")
            #expect(readsExactly(880, level: -6, after: mark))
            for bad in ["freq 30000", "level 3", "bogus 1", "freq"] { node.send(bad) }
            node.send("mute on")
            node.send("mute off")
            mark = node.lineCount
            #expect(readsExactly(880, level: -6, after: mark), "still the last good settings")
            let errors = node.stderr.split(separator: "\n").filter { $0.hasPrefix("tonenode: error:") }
            #expect(errors.count == 4, "stderr: \(node.stderr)")
            #expect(errors.first?.contains("Nyquist") == true)
            #expect(node.isRunning)
        }
    }
}
