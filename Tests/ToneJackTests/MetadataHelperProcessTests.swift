import Foundation
import Synchronization
import Testing
@testable import ToneJack

/// `MetadataHelperProcess`: the node's side of the metadata helper, with a
/// stand-in helper (a shell script speaking its protocol), no JACK involved.
@Suite("Metadata helper process")
struct MetadataHelperProcessTests {
    /// The answer thread (`JackClient.setPrettyNames`) and the closing thread
    /// (`JackClient.close`) both read the helper's stdout. When its answer
    /// comes while both wait in `poll`, both wake; one reads it, and the
    /// other must not then block in `read` until the helper exits (which a
    /// helper waiting on the store may never do).
    @Test("two threads waiting on a helper's stdout both keep their deadlines")
    func concurrentWaitsKeepDeadlines() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("tn-fake-helper-\(getpid()).sh")
        // Answers after 0.2 s, then keeps its stdout open until its stdin ends (the node's `finish`).
        try "#!/bin/sh\nsleep 0.2\nprintf 'set 1 1\\n'\nread -r line\nexit 0\n"
            .write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        defer { try? FileManager.default.removeItem(at: script) }
        MetadataHelperProcess.executable.withLock { $0 = script.path }
        defer { MetadataHelperProcess.executable.withLock { $0 = nil } }
        // The race is one of scheduling (a loser must re-check readiness before the winner's read):
        // many helpers and waiters at once, so that a blocking read shows in almost every run.
        let count = 12, exitWaiters = 3
        var helpers: [MetadataHelperProcess] = []
        for index in 0..<count {
            helpers.append(try #require(MetadataHelperProcess.start(server: nil, clientName: "test\(index)",
                                                                    names: [(1, "x")])))
        }
        let answers = Mutex<[MetadataHelperProcess.Answer]>([])
        let exits = Mutex<[Bool]>([])
        let returned = DispatchSemaphore(value: 0)
        for helper in helpers {
            Thread.detachNewThread {
                let result = helper.awaitAnswer(deadline: .seconds(2))
                answers.withLock { $0.append(result) }
                returned.signal()
            }
            for _ in 0..<exitWaiters {
                Thread.detachNewThread {
                    let result = helper.awaitExit(until: .now + .milliseconds(600))
                    exits.withLock { $0.append(result) }
                    returned.signal()
                }
            }
        }
        let limit = DispatchTime.now() + 3.5
        var waiting = (1 + exitWaiters) * count
        while waiting > 0 && returned.wait(timeout: limit) == .success { waiting -= 1 }
        // Ends the stand-ins (a thread still blocked in `read` then sees the end of file).
        helpers.forEach { $0.finish() }
        #expect(waiting == 0, "\(waiting) waiters overran their deadlines (blocked in read)")
        while waiting > 0 && returned.wait(timeout: .now() + 5) == .success { waiting -= 1 }
        #expect(answers.withLock { $0 } == Array(repeating: .stored(count: 1, of: 1), count: count))
        #expect(exits.withLock { $0 } == Array(repeating: false, count: exitWaiters * count),
                "the stand-ins keep running until their stdin ends")
        for helper in helpers {
            #expect(helper.awaitExit(until: .now + .seconds(5)), "a stand-in exited and was reaped after finish")
        }
    }
}
