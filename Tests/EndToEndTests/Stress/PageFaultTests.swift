import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests.StressTests {
    /// The JACK thread takes no page faults: every ring it writes is
    /// pre-faulted (and `mlock`ed where allowed) before `jack_activate`, the
    /// bridge with its MIDI event arrays and the callback profile's bins too
    /// (docs/engineering/reliability.md). At 64 frames a period, the node profiled and a
    /// MIDI note every 50 ms from `jack_midiseq`, its minor faults are read
    /// from /proc over 10 s (long, `TONENODE_STRESS=long`: 60 s).
    @Suite("Stress: the JACK thread's page faults")
    struct PageFaultTests {
        @Test("the node's JACK thread takes 0 minor page faults after activation")
        func noPageFaults() throws {
            let server = try startServer(periodFrames: 64)
            defer { server.stop() }
            let notes = try LiveCommand.jackTool("jack_midiseq", ["faultseq", "2400", "0", "69", "1200"], server: server.name)
            defer { notes.stop() }
            try waitForPort("faultseq:out", server: server.name)
            let node = try LiveCommand(["run", "-s", server.name, "-n", "faults", "--plain", "--profile-callback",
                                        "--connect-midi", "faultseq:out"])
            defer { node.stop() }
            // Its process thread, once it has run 100 periods (0.13 s): by then
            // it leads the notification threads that carry the same name.
            var task: String?
            _ = node.waitUntil(timeoutSeconds: 10) { node in
                task = Self.processTask(of: node.processIdentifier).flatMap { $0.runs >= 100 ? $0.path : nil }
                return task != nil
            }
            let path = try #require(task, "no thread named tonenode-jack ran 100 periods; stderr: \(node.stderr)")
            let seconds = StressLength.current.faultSeconds
            let first = try #require(Self.minorFaults(path))
            usleep(UInt32(seconds * 1e6))
            let last = try #require(Self.minorFaults(path), "the JACK thread is gone; stderr: \(node.stderr)")
            report("faults: the JACK thread took \(last - first) minor page faults in \(seconds) s after activation")
            #expect(last == first, "\(last - first) minor page faults in \(seconds) s; stderr: \(node.stderr)")
        }

        /// The node's JACK process thread: of its threads named
        /// `tonenode-jack` (its thread-init callback names them; jack2 calls
        /// it on the notification threads too), the one scheduled most (a run
        /// a period). Its /proc task directory and how often it has run.
        static func processTask(of pid: Int32) -> (path: String, runs: Int)? {
            let tasks = "/proc/\(pid)/task"
            let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            return ids.compactMap { id -> (path: String, runs: Int)? in
                let path = "\(tasks)/\(id)"
                guard let name = try? String(contentsOfFile: "\(path)/comm", encoding: .utf8),
                      name.trimmingCharacters(in: .whitespacesAndNewlines) == "tonenode-jack",
                      let schedule = try? String(contentsOfFile: "\(path)/schedstat", encoding: .utf8),
                      let runs = schedule.split(separator: " ").dropFirst(2).first.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
                else { return nil }
                return (path, runs)
            }.max { $0.runs < $1.runs }
        }

        /// A task's minor faults (`minflt`, field 10 of its stat).
        static func minorFaults(_ path: String) -> Int? {
            guard let stat = try? String(contentsOfFile: "\(path)/stat", encoding: .utf8),
                  let afterName = stat.range(of: ") ", options: .backwards) else { return nil }
            let fields = stat[afterName.upperBound...].split(separator: " ")
            return fields.count > 7 ? Int(fields[7]) : nil
        }
    }
}
