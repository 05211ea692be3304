import EndToEndSupport
import Foundation
import Synchronization
import Testing
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

extension JackServerTests {
    @Suite("Non-finite audio on the input")
    struct NonFiniteInputTests {
        @Test("NaN/Inf on `in` never reach `out`, are reported as invalid, and the detector recovers")
        func nanInput() async throws {
            let server = try startServer()
            defer { server.stop() }
            let probe = SignalProbe(.nonFinite)
            let peer = try JackPeer(name: "peer", server: server.name, audioIn: ["in"], audioOut: ["out"],
                                    process: probe.process)
            var settings = nodeSettings(server, client: "victim")
            settings.frequencyHz = 1000
            settings.connectIn = ["peer:out"]
            settings.connectOut = ["peer:in"]
            let node = try Node(settings: settings)
            defer { node.stop() }

            let poisoned = await collectReadings(node, afterFrames: 2 * server.periodFrames, count: 10, timeoutSeconds: 5)
            #expect(poisoned.count == 10)
            #expect(poisoned.allSatisfy { $0.invalidInput && $0.frequencyHz == nil })

            probe.signal = .sine500Hz
            let switchedAt = node.renderedFrames + 4 * server.periodFrames
            let clean = await collectReadings(node, afterFrames: switchedAt, count: 4, timeoutSeconds: 5)
            #expect(clean.count == 4)
            for reading in clean {
                #expect(!reading.invalidInput)
                #expect(abs((reading.frequencyHz ?? 0) - 500) < 0.001)
            }
            #expect(probe.framesSeen.load(ordering: .relaxed) > 0)
            #expect(probe.nonFiniteSeen.load(ordering: .relaxed) == 0, "our output carried NaN/Inf")
            let peak = probe.peakSeen
            #expect(abs(Double(peak) - Decibels.amplitude(dbfs: -18)) < 0.01, "our output kept playing the tone")
            withExtendedLifetime(peer) {}
        }
    }
}
