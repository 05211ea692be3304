import EndToEndSupport
import Foundation
import Testing
import ToneCore
import ToneEngine
import ToneJack

extension JackServerTests {
    @Suite("The JACK server goes away and comes back")
    struct ServerRestartTests {
        /// Reports after `time` whose frequency is `frequencyHz` to within 1 mHz.
        static func exactReports(_ live: LiveCommand, after time: Double, frequencyHz: Double) -> [Double] {
            live.reports.compactMap { report in
                guard let t = report["time_s"] as? Double, t > time,
                      let f = report["freq_hz"] as? Double, abs(f - frequencyHz) < 0.001 else { return nil }
                return t
            }
        }

        @Test("run reopens at the new rate and period, restores its connections, and reads the tone exactly")
        func restartAtAnotherRate() throws {
            let name = "tn-test-restart-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            var server = try startServer(periodFrames: 256, sampleRateHz: 48000, name: name)
            defer { server.stop() }
            let live = try LiveCommand(["run", "-s", name, "-n", "phoenix", "--json", "--freq", "997",
                                        "--hop", "4096", "--connect-out", "phoenix:in"])
            #expect(live.waitUntil(timeoutSeconds: 10) { Self.exactReports($0, after: 0, frequencyHz: 997).count >= 3 },
                    "stderr: \(live.stderr)")
            // Someone wires our out to the server's playback port by hand.
            let wired = try runCommand(["phoenix:out", "system:playback_1"], executable: "/usr/bin/jack_connect",
                                       environment: ["JACK_DEFAULT_SERVER": name])
            #expect(wired.status == 0)
            usleep(1_500_000)  // more than the one-second connection snapshot
            let before = live.reports.compactMap { $0["time_s"] as? Double }.max() ?? 0

            server.stop()
            #expect(live.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("waiting for it to come back") },
                    "stderr: \(live.stderr)")
            #expect(live.isRunning)
            server = try startServer(periodFrames: 512, sampleRateHz: 44100, name: name)

            #expect(live.waitUntil(timeoutSeconds: 15) { Self.exactReports($0, after: before, frequencyHz: 997).count >= 3 },
                    "stderr: \(live.stderr)\nstdout tail: \(live.stdout.suffix(600))")
            #expect(live.stderr.contains("reconnected: client 'phoenix' at 44100 Hz, 512 frames/period"))
            let times = live.reports.compactMap { $0["time_s"] as? Double }
            #expect(times == times.sorted(), "time_s never goes back")
            let connections = try connectionsOnServer(name)
            #expect(connections["phoenix:out"] == ["phoenix:in", "system:playback_1"], "connections: \(connections)")

            live.signal(SIGINT)
            let exit = try #require(live.exitStatus(timeoutSeconds: 5))
            #expect(exit.status == 0 && exit.reason == .exit)
        }

        @Test("a server lost in the node's first second: its connections come back with it")
        func restartEarly() throws {
            let name = "tn-test-early-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            var server = try startServer(name: name)
            defer { server.stop() }
            let live = try LiveCommand(["run", "-s", name, "-n", "early", "--json", "--freq", "997",
                                        "--hop", "1024", "--connect-out", "early:in"])
            // The first report: a fraction of the first second of audio.
            #expect(live.waitUntil(timeoutSeconds: 10) { !$0.reports.isEmpty }, "stderr: \(live.stderr)")
            let before = live.reports.compactMap { $0["time_s"] as? Double }.max() ?? 0
            #expect(before < 1)
            server.stop()
            #expect(live.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("waiting for it to come back") },
                    "stderr: \(live.stderr)")
            server = try startServer(name: name)
            #expect(live.waitUntil(timeoutSeconds: 15) { Self.exactReports($0, after: before, frequencyHz: 997).count >= 3 },
                    "stderr: \(live.stderr)\nstdout tail: \(live.stdout.suffix(600))")
            #expect(try connectionsOnServer(name)["early:out"] == ["early:in"])
            live.signal(SIGINT)
            #expect(live.exitStatus(timeoutSeconds: 5)?.status == 0)
        }

        @Test("with --no-reconnect, run exits 1 with one line when the server goes away")
        func noReconnect() throws {
            let server = try startServer()
            defer { server.stop() }
            let live = try LiveCommand(["run", "-s", server.name, "-n", "mortal", "--no-reconnect", "--json", "--mute"])
            #expect(live.waitUntil(timeoutSeconds: 10) { !$0.reports.isEmpty })
            server.stop()
            let exit = try #require(live.exitStatus(timeoutSeconds: 10))
            #expect(exit.status == 1 && exit.reason == .exit)
            #expect(live.stderr.contains("tonenode: error: the JACK server shut the client down"))
        }

        @Test("a signal while waiting for the server ends run promptly with status 0")
        func signalWhileWaiting() throws {
            let server = try startServer()
            let live = try LiveCommand(["run", "-s", server.name, "-n", "patient", "--mute"])
            #expect(live.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("client 'patient'") })
            server.stop()
            #expect(live.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("waiting for it to come back") })
            let signalled = Date()
            live.signal(SIGTERM)
            let exit = try #require(live.exitStatus(timeoutSeconds: 5))
            #expect(exit.status == 0 && exit.reason == .exit,
                    "status \(exit.status) (\(exit.reason)) \(String(format: "%.2f", Date().timeIntervalSince(signalled))) s after SIGTERM; stderr: \(live.stderr)")
        }

        @Test("SIGINT, SIGTERM or SIGHUP at any moment of start-up: no hang, no crash",
              arguments: [SIGINT, SIGTERM, SIGHUP])
        func signalDuringStartUp(signal: Int32) throws {
            let server = try startServer()
            defer { server.stop() }
            for delayMs in [0, 5, 20, 60, 150, 300] {
                let live = try LiveCommand(["run", "-s", server.name, "-n", "jumpy", "--mute"])
                usleep(useconds_t(delayMs * 1000))
                live.signal(signal)
                let exit = try #require(live.exitStatus(timeoutSeconds: 5), "hung after a signal \(delayMs) ms in")
                // Before the handlers are installed (the first milliseconds) the
                // signal's default action ends the process; before `run` has
                // begun (nothing to stop in order) the watcher exits at once
                // with 128 + signal; after, it is a clean stop.
                let clean = exit.reason == .exit && exit.status == 0
                let killedBySignal = exit.reason == .uncaughtSignal && exit.status == signal
                    || exit.reason == .exit && exit.status == 128 + signal
                #expect(clean || killedBySignal, "\(delayMs) ms: status \(exit.status) \(exit.reason); stderr: \(live.stderr)")
            }
        }
    }
}
