import EndToEndSupport
import Foundation
import Synchronization
import Testing
import ToneCore
import ToneEngine
import ToneJack
import ToneTestSupport

extension JackServerTests {
    /// A long run of `tonenode run` on a dummy server in freewheel mode
    /// (`jack_freewheel y`: the graph runs as fast as the CPU allows, through
    /// the same process callback, ring and worker), retuned over stdin as soon
    /// as each new frequency has been read exactly.
    ///
    /// `TONENODE_SOAK_SECONDS` sets the audio length (default 3600 s: the hour).
    @Suite("Soak")
    struct SoakTests {
        static let audioSeconds = Double(ProcessInfo.processInfo.environment["TONENODE_SOAK_SECONDS"] ?? "") ?? 3600

        @Test("an hour of audio through tonenode run, retuned all along: every frequency read exactly, RSS and fds flat")
        func soak() throws {
            let rate = 48_000, period = 4096
            let server = try startServer(periodFrames: period, sampleRateHz: rate)
            defer { server.stop() }
            let node = try LiveCommand(["run", "-s", server.name, "-n", "soak", "--json", "--fft-size", "8192",
                                        "--hop", "8192", "--connect-out", "soak:in"], input: .pipe)
            defer { node.stop() }
            // A pacer: 0.2 ms of busy work a period holds freewheel to about 20
            // times real time whatever the node costs, so the retunes (one
            // per stdin round trip) keep covering the hour. Without it, the
            // node's cheaper oscillator (renderSineRun) let freewheel run the
            // hour in about a second of wall time: 6 retunes.
            let pacer = try JackPeer(name: "pacer", server: server.name, audioOut: ["out"]) { _ in
                let until = DispatchTime.now().uptimeNanoseconds + 200_000
                while DispatchTime.now().uptimeNanoseconds < until {}
            }
            defer { pacer.close() }
            let environment = ["JACK_DEFAULT_SERVER": server.name]
            // Freewheel once the node runs (a client activated during freewheel waits for it to end).
            let started = Date().addingTimeInterval(10)
            while node.lineCount == 0 && Date() < started { usleep(10_000) }
            #expect(try runCommand(["y"], executable: "/usr/bin/jack_freewheel", environment: environment).status == 0)
            let wallStart = Date()
            var generator = SplitMix64(seed: 0x50A4)
            var audioTime = 0.0, steps = 0, failures: [String] = []
            var warmRSS: Int?, warmFDs: Int?, lastRSS = 0, lastFDs = 0
            let wallDeadline = Date().addingTimeInterval(240)
            while audioTime < Self.audioSeconds && failures.count < 5 {
                guard Date() < wallDeadline else { failures.append("not done after 240 s of wall time"); break }
                // Log-uniform 40 Hz…20 kHz, rounded to a millihertz.
                let target = (exp(Double.random(in: log(40.0)...log(20_000.0), using: &generator)) * 1000).rounded() / 1000
                let sentAt = node.lineCount
                node.send("freq \(target)")
                steps += 1
                // Read exactly within 10 s of wall time (hundreds of windows). In
                // freewheel the JACK thread takes a whole core at nice 0 while the
                // worker and the report threads run at nice 10: on a loaded
                // 2-core machine they were once starved for over 2 s.
                let deadline = Date().addingTimeInterval(10)
                var read = false
                while !read && Date() < deadline {
                    for line in node.lines(from: sentAt) {
                        guard let report = parseReport(line) else { failures.append("not JSON: \(line)"); continue }
                        audioTime = max(audioTime, report["time_s"] as? Double ?? 0)
                        if let f = report["freq_hz"] as? Double, abs(f - target) < 0.001 { read = true }
                        if let f = report["freq_hz"] as? Double, !f.isFinite { failures.append("non-finite: \(line)") }
                    }
                    if !read { usleep(2_000) }
                }
                if !read { failures.append("step \(steps): \(target) Hz never read exactly (audio \(audioTime) s)") }
                guard node.isRunning else { failures.append("tonenode exited"); break }
                (lastRSS, lastFDs) = (node.residentBytes, node.openFileDescriptors)
                if warmRSS == nil && audioTime >= 0.1 * Self.audioSeconds { (warmRSS, warmFDs) = (lastRSS, lastFDs) }
            }
            let wallSeconds = Date().timeIntervalSince(wallStart)
            report("soak: \(steps) retunings over \(Int(audioTime)) s of audio (\(Int(audioTime) * rate) samples) "
                   + "in \(Int(wallSeconds)) s of wall time; RSS after warm-up \(warmRSS ?? 0) B, at the end \(lastRSS) B; "
                   + "fds \(warmFDs ?? 0) → \(lastFDs); stderr: \(node.stderr.split(separator: "\n").suffix(2))")
            #expect(failures.isEmpty, "\(failures.prefix(5))")
            #expect(steps >= Int(Self.audioSeconds / 200), "retuned at least every 200 audio seconds")
            let grownBytes = lastRSS - (warmRSS ?? 0)
            #expect(grownBytes <= 1 << 20, "RSS grew by \(grownBytes) bytes after warm-up")
            #expect(lastFDs == warmFDs, "open file descriptors went from \(warmFDs ?? 0) to \(lastFDs)")
            #expect(!node.stderr.contains("error"), "stderr: \(node.stderr)")
        }
    }
}
