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

        @Test("--glide sets how long a change glides; a `glide` line changes it, out of range is one error line")
        func glide() throws {
            let server = try startServer()
            defer { server.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "gl", "--json", "--hop", "2048", "--glide", "2",
                                        "--connect-out", "gl:in"], input: .pipe)
            defer { node.stop() }
            func reads(after index: Int, _ accept: (Double) -> Bool) -> Bool {
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline {
                    if node.lines(from: index).compactMap(parseReport).contains(where: { accept($0["freq_hz"] as? Double ?? 0) }) {
                        return true
                    }
                    usleep(20_000)
                }
                return false
            }
            #expect(reads(after: 0) { abs($0 - 1000) < 0.001 })
            let mark = node.lineCount
            // Over 2 s, reports one hop (43 ms) apart read the tone on its way.
            node.send("freq 2000")
            #expect(reads(after: mark) { $0 > 1200 && $0 < 1800 }, "no reading between 1200 and 1800 Hz on a 2 s glide")
            #expect(reads(after: mark) { abs($0 - 2000) < 0.001 })
            node.send("glide 11")
            node.send("glide 0.01")
            #expect(reads(after: node.lineCount) { abs($0 - 2000) < 0.001 })
            var errors: [Substring] = []
            for _ in 0..<250 where errors.isEmpty {
                errors = node.stderr.split(separator: "\n").filter { $0.hasPrefix("tonenode: error:") }
                usleep(20_000)
            }
            #expect(errors.count == 1 && errors.first?.contains("must be a number of seconds from 0 to 10") == true,
                    "stderr: \(node.stderr)")
            #expect(node.isRunning)
        }
    }
}
