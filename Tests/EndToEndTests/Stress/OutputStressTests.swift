import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

extension JackServerTests.StressTests {
    /// stdout a command cannot write to. `run` into a closed pipe and into
    /// /dev/full: `ReliabilityTests`; an unread pipe's drops and threads:
    /// `ReliabilityTests` ("5 s unread…").
    @Suite("Stress: stdout full or unread")
    struct OutputStressTests {
        @Test("receive into /dev/full ends with its --duration")
        func receiveIntoFullDevice() throws {
            let server = try startServer()
            defer { server.stop() }
            let started = Date()
            let result = try Self.shell("\"$0\" receive -s \"$1\" -n fullr --duration 1 >/dev/full", server.name,
                                        timeoutSeconds: 20)
            let seconds = Date().timeIntervalSince(started)
            #expect(result.finished, "still running after 20 s: \(result.stderr)")
            #expect(seconds < 5, "ended after \(seconds) s")
            #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
        }

        @Test("analyze into /dev/full: status 1 and one error line")
        func analyzeIntoFullDevice() throws {
            let wav = NSTemporaryDirectory() + "tn-full-\(getpid()).wav"
            defer { try? FileManager.default.removeItem(atPath: wav) }
            #expect(try runCommand(["encode", "stress", "-o", wav]).status == 0)
            let result = try Self.shell("\"$0\" analyze \"$1\" >/dev/full", wav, timeoutSeconds: 20)
            #expect(result.status == 1 && result.stderrLines.count == 1, "\(result.status): \(result.stderr)")
        }

        /// The pipe is made one page small and the node reports every 128
        /// frames: the pipe and the 128 KiB of reports kept behind it are full
        /// in about 2.5 s, so after 4 s its reports are being dropped.
        @Test("a pipe nobody reads: the node ends within 2 s of SIGTERM")
        func unreadPipeEndsOnSignal() throws {
            let server = try startServer()
            defer { server.stop() }
            let pipe = Pipe()
            // F_SETPIPE_SZ (1031: F_LINUX_SPECIFIC_BASE + 7; Glibc does not export it without _GNU_SOURCE).
            _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, 1031, 4096)
            let errors = NSTemporaryDirectory() + "tn-unread-signal-\(getpid()).err"
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            defer { try? FileManager.default.removeItem(atPath: errors) }
            let process = Process()
            process.executableURL = productsDirectory.appendingPathComponent("tonenode")
            process.arguments = ["run", "-s", server.name, "-n", "unread", "--json", "--hop", "128"]
            process.standardOutput = pipe
            process.standardError = FileHandle(forWritingAtPath: errors)
            process.standardInput = FileHandle.nullDevice
            try process.runWithSignalsUnblocked()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            // The read end stays open and is never read.
            try? pipe.fileHandleForWriting.close()
            let stderr = { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
            let opened = Date().addingTimeInterval(15)
            while Date() < opened && !stderr().contains("client 'unread'") { usleep(50_000) }
            usleep(4_000_000)
            let sent = Date()
            kill(process.processIdentifier, SIGTERM)
            while process.isRunning && Date().timeIntervalSince(sent) < 4 { usleep(10_000) }
            let seconds = Date().timeIntervalSince(sent)
            let ended = !process.isRunning
            report(String(format: "output: an unread pipe: ended %.2f s after SIGTERM", seconds))
            #expect(ended && seconds < 2, "ended \(ended) after \(seconds) s: \(stderr())")
            #expect(stderr().contains("dropped: stdout was not read in time"), "the pipe never filled: \(stderr())")
            try? pipe.fileHandleForReading.close()
        }

        /// Runs `script` in bash with the built tonenode as $0 and `argument` as $1.
        static func shell(_ script: String, _ argument: String, timeoutSeconds: Double) throws -> CommandResult {
            let tonenode = productsDirectory.appendingPathComponent("tonenode").path
            return try runCommand(["-c", script, tonenode, argument], executable: "/bin/bash",
                                  timeoutSeconds: timeoutSeconds, recordsTimeout: false)
        }
    }
}
