import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests {
    @Suite("The server's period changed under a running node (jackd2, jack_bufsize)")
    struct PeriodChangeTests {
        /// Before windows across a change were withheld, this run read 33 and
        /// 35 of 368 valid readings wrong (997 Hz read as another frequency).
        @Test("jack_bufsize 512 → 64 → 2048 during a run: each change said, on stderr and in the JSON, and no valid reading is wrong")
        func bufferSizeChanges() throws {
            let server = try startServer()
            defer { server.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "--loopback", "--freq", "997", "--json", "--duration", "3"])
            #expect(node.waitUntil(timeoutSeconds: 10) { !$0.reports.isEmpty }, "\(node.stderr)")
            for frames in [512, 64, 2048] {
                let bufsize = try runCommand([String(frames)], executable: "/usr/bin/jack_bufsize",
                                             environment: ["JACK_DEFAULT_SERVER": server.name], timeoutSeconds: 10)
                #expect(bufsize.status == 0, "\(bufsize.stderr)")
                usleep(500_000)
            }
            #expect(node.exitStatus(timeoutSeconds: 20)?.status == 0, "\(node.stderr)")
            let changes = node.reports.filter { $0["event"] as? String == "period_changed" }.compactMap { $0["period_frames"] as? Int }
            #expect(changes == [512, 64, 2048], "\(node.stderr)")
            for frames in [512, 64, 2048] {
                #expect(node.stderr.contains("tonenode: period changed to \(frames) frames (readings across the change withheld)"))
            }
            let readings = node.reports.compactMap { ($0["invalid"] as? Bool) == false ? $0["freq_hz"] as? Double : nil }
            #expect(readings.count >= 50, "\(node.stderr)")
            let wrong = readings.filter { abs($0 - 997) >= 0.01 }
            #expect(wrong.isEmpty, "\(wrong.count) of \(readings.count) valid readings are not 997 Hz: \(wrong.prefix(8))")
        }

        /// `link` on its own loop (out → in): the round trip is one period on
        /// jackd2, so it follows `jack_bufsize`; each change is said, and a
        /// reading is either marked as across a change or reads the period
        /// in force at its end (within 0.01 frame).
        @Test("jack_bufsize 256 → 1024 under link: said on stderr and in the JSON, readings across it marked, the others one period")
        func bufferSizeChangeUnderLink() throws {
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            let link = try LiveCommand(["link", "-s", server.name, "-n", "loop", "--json", "--connect-out", "loop:in",
                                        "--duration", "6"])
            #expect(link.waitUntil(timeoutSeconds: 10) { $0.reports.filter { $0["latency_frames"] is Double }.count >= 4 },
                    "\(link.stderr)")
            let bufsize = try runCommand(["1024"], executable: "/usr/bin/jack_bufsize",
                                         environment: ["JACK_DEFAULT_SERVER": server.name], timeoutSeconds: 10)
            #expect(bufsize.status == 0, "\(bufsize.stderr)")
            _ = link.exitStatus(timeoutSeconds: 20)
            #expect(link.stderr.contains("tonenode: period changed from 256 to 1024 frames"), "\(link.stderr)")
            let events = link.reports.filter { $0["event"] as? String == "period_changed" }.compactMap { $0["period_frames"] as? Int }
            #expect(events == [1024], "\(link.stderr)")
            // Each reading's period: 256 before the event line, 1024 after it.
            var periodFrames = 256.0
            var marked = 0, before = 0, after = 0
            for line in link.reports {
                if line["event"] as? String == "period_changed" { periodFrames = 1024; continue }
                guard let latency = line["latency_frames"] as? Double else { continue }
                if line["period_change"] as? Bool == true { marked += 1; continue }
                #expect(abs(latency - periodFrames) < 0.01 || (periodFrames == 256 && abs(latency - 1024) < 0.01),
                        "a reading of \(latency) frames, unmarked, with a period of \(Int(periodFrames)): \(link.stdout.suffix(2000))")
                if abs(latency - 1024) < 0.01 { after += 1 } else { before += 1 }
            }
            report("link under jack_bufsize 256 → 1024: \(before) readings of 256 frames, \(marked) marked across the change, "
                   + "\(after) of 1024")
            #expect(before >= 3 && after >= 3, "\(before) before, \(after) after: \(link.stderr)")
        }
    }
}
