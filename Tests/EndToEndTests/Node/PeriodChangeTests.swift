import EndToEndSupport
import Foundation
import Testing

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
    }
}
