import EndToEndSupport
import Foundation
import Testing
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

extension JackServerTests {
    /// A node whose input is silent rests between bursts of "no tone"
    /// reports (AnalysisWorker): still one report per hop, in order, and a
    /// tone that arrives later is read as soon as its window is whole.
    @Suite("A node with a silent input")
    struct IdleNodeTests {
        @Test("unconnected: one no-tone report per hop, in order; connected later: the tone within a window and a rest")
        func restsAndWakes() async throws {
            let toneHz = 1234.5
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            let node = try Node(settings: Self.settings(server, toneHz: toneHz))
            defer { node.stop() }
            let settings = node.settings
            let hopSeconds = Double(settings.hopFrames) / Double(node.client.sampleRateHz)
            var iterator = node.events.makeAsyncIterator()
            // About 1 s of silence: every hop once, nothing detected.
            var times: [Double] = []
            while times.count < 90, let event = await iterator.next() {
                guard case .report(let report) = event else { continue }
                #expect(report.reading.frequencyHz == nil, "\(report)")
                times.append(report.timeSeconds)
            }
            #expect(times.count == 90)
            for (earlier, later) in zip(times, times.dropFirst()) {
                #expect(abs(later - earlier - hopSeconds) < 1e-9, "\(earlier) → \(later)")
            }
            // Our own tone into our input: read from the first window after the connection.
            let connected = try runCommand(["resting:out", "resting:in"], executable: "/usr/bin/jack_connect",
                                           environment: ["JACK_DEFAULT_SERVER": server.name])
            #expect(connected.status == 0, "\(connected.stderr)")
            let connectedAtSeconds = Double(node.engine.renderedFrames.load(ordering: .relaxed)) / Double(node.client.sampleRateHz)
            let wallStart = Date()
            var heardAtSeconds: Double?
            var reportsSince = 0
            // At most 2 s of reports: a worker that never woke again fails here instead of hanging.
            while heardAtSeconds == nil, reportsSince < 190, let event = await iterator.next() {
                guard case .report(let report) = event else { continue }
                reportsSince += 1
                if let frequency = report.reading.frequencyHz, abs(frequency - toneHz) < 0.01 {
                    heardAtSeconds = report.timeSeconds
                }
            }
            let heard = try #require(heardAtSeconds)
            // One window and a hop of audio after the connection, give or take two periods.
            let windowSeconds = Double(settings.fftSize) / Double(node.client.sampleRateHz)
            #expect(heard - connectedAtSeconds < windowSeconds + hopSeconds + 0.02, "heard at \(heard) s, connected at \(connectedAtSeconds) s")
            // And handed over within a window plus the worker's longest rest (50 ms), with room for a loaded machine.
            #expect(Date().timeIntervalSince(wallStart) < windowSeconds + 0.05 + 0.5)
        }

        /// Muted off, nothing connected, hop 512.
        static func settings(_ server: PrivateJackServer, toneHz: Double) -> NodeSettings {
            var settings = nodeSettings(server, client: "resting")
            settings.frequencyHz = toneHz
            settings.hopFrames = 512
            return settings
        }
    }
}
