import EndToEndSupport
import Foundation
import Testing
import ToneEngine

extension JackServerTests {
    @Suite("--profile-callback")
    struct CallbackProfileTests {
        /// (periods, period µs, mean µs, p99 µs, worst µs) of each `callback:` line on stderr.
        static func summaries(_ stderr: String) -> [(Int, Double, Double, Double, Double)] {
            let pattern = /callback: (\d+) periods of ([0-9.]+) µs: mean ([0-9.]+) µs \([0-9.]+ %\), p99 ≤ ([0-9.]+) µs, worst ([0-9.]+) µs \([0-9.]+ %\)/
            return stderr.split(separator: "\n").compactMap { line in
                guard let match = line.firstMatch(of: pattern) else { return nil }
                return (Int(match.1)!, Double(match.2)!, Double(match.3)!, Double(match.4)!, Double(match.5)!)
            }
        }

        @Test("times the process callback and reports it at the end; nothing without the flag")
        func reportsWhenAsked() throws {
            let server = try startServer()
            defer { server.stop() }
            let profiled = try runCommand(["run", "-s", server.name, "-n", "prof", "--mute", "--duration", "1",
                                           "--profile-callback"])
            #expect(profiled.status == 0, "stderr: \(profiled.stderr)")
            let summary = try #require(Self.summaries(profiled.stderr).last, "stderr: \(profiled.stderr)")
            let (periods, periodMicroseconds, mean, p99, worst) = summary
            // startServer's period at 48 kHz; a second of audio is that many periods (and a few more).
            let expectedPeriods = 1e6 / periodMicroseconds
            #expect(Double(periods) >= 0.9 * expectedPeriods && Double(periods) < 3 * expectedPeriods + 50)
            #expect(mean > 0 && mean <= worst && p99 <= worst + 1)
            #expect(worst < 1e6, "a callback longer than a second is not a measurement")

            let plain = try runCommand(["run", "-s", server.name, "-n", "plain", "--mute", "--duration", "0.5"])
            #expect(plain.status == 0, "stderr: \(plain.stderr)")
            #expect(!plain.stderr.contains("callback:"), "off by default")
        }

        @Test("a node made without profiling has no profile; with it, one that counts periods")
        func nodeProfile() throws {
            let server = try startServer()
            defer { server.stop() }
            var settings = nodeSettings(server, client: "quiet")
            settings.muted = true
            let quiet = try Node(settings: settings)
            #expect(quiet.callbackProfile == nil)
            quiet.stop()
            settings.clientName = "timed"
            let timed = try Node(settings: settings, profilesCallback: true)
            defer { timed.stop() }
            let deadline = Date().addingTimeInterval(5)
            while (timed.callbackProfile?.count ?? 0) < 20 && Date() < deadline { usleep(10_000) }
            let profile = try #require(timed.callbackProfile)
            #expect(profile.count >= 20)
            // The count is read first: the bins hold at least the callbacks it counts.
            #expect(profile.bins.reduce(0, +) >= UInt64(profile.count))
            #expect(profile.worstNanoseconds >= profile.totalNanoseconds / UInt64(max(1, profile.count)))
        }
    }
}
