import EndToEndSupport
import Foundation
import Testing

/// The runner itself, on plain Unix tools (no JACK server): a hang is a
/// recorded failure, not a stuck suite; output is read as it grows.
@Suite("The test process runner")
struct LiveCommandTests {
    @Test("a command that outlives its time limit is stopped and recorded as a failure")
    func timeoutIsAFailure() throws {
        let started = Date()
        var result: CommandResult?
        withKnownIssue("the runner records the hang") {
            result = try? runCommand(["30"], executable: "/bin/sleep", timeoutSeconds: 0.5)
        } matching: { issue in
            String(describing: issue).contains("did not finish within 0.5 s")
        }
        #expect(Date().timeIntervalSince(started) < 5, "stopped by SIGTERM, not waited for")
        #expect(result?.status == SIGTERM)
    }

    @Test("stdout and stderr of a command run to completion, and its exit status")
    func runToCompletion() throws {
        let result = try runCommand(["-c", "printf 'a\\nGrüße'; echo oops >&2; exit 3"], executable: "/bin/sh")
        #expect(result.status == 3)
        #expect(result.stdoutLines == ["a", "Grüße"])
        #expect(result.stderr == "oops\n")
    }

    @Test("lines written to stdin come back as complete lines as they are written; closing stdin ends it")
    func stdinAndGrowingOutput() throws {
        let cat = try LiveCommand([], executable: "/bin/cat", input: .pipe)
        cat.send("{\"n\": 1}")
        #expect(cat.waitUntil(timeoutSeconds: 5) { $0.lineCount == 1 })
        let mark = cat.lineCount
        cat.send("ü\n{\"n\": 2}")
        #expect(cat.waitUntil(timeoutSeconds: 5) { $0.lineCount == 3 })
        #expect(Array(cat.lines(from: mark)) == ["ü", "{\"n\": 2}"])
        #expect(cat.reports.compactMap { $0["n"] as? Int } == [1, 2])
        cat.closeInput()
        #expect(cat.exitStatus(timeoutSeconds: 5)?.status == 0)
    }

    @Test("a child starts with no signal blocked; a signal ends it, and the status says which")
    func signalled() throws {
        let sleeper = try LiveCommand(["30"], executable: "/bin/sleep")
        #expect(sleeper.isRunning)
        // Started as from a shell: SIGINT and SIGTERM not blocked (the test's own thread blocks them).
        let status = (try? String(contentsOfFile: "/proc/\(sleeper.processIdentifier)/status", encoding: .utf8)) ?? ""
        let blocked = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
            .flatMap { UInt64($0.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
        let mask = try #require(blocked, "no SigBlk in /proc: \(status)")
        #expect(mask & (1 << UInt64(SIGINT - 1) | 1 << UInt64(SIGTERM - 1)) == 0, "SigBlk \(String(mask, radix: 16))")
        #expect(sleeper.exitStatus(timeoutSeconds: 0.2) == nil, "still running")
        sleeper.signal(SIGINT)
        let exit = try #require(sleeper.exitStatus(timeoutSeconds: 5))
        #expect(exit.reason == .uncaughtSignal && exit.status == SIGINT)
    }
}
