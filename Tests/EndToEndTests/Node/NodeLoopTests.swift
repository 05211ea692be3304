import EndToEndSupport
import Foundation
import Testing
import ToneCore
import ToneDSP
@testable import ToneEngine
import ToneJack
import ToneTestSupport

/// Collects readings from a node's reports whose window starts after
/// `afterFrames`, until `count` arrive or `timeoutSeconds` pass.
func collectReadings(_ node: Node, afterFrames: Int, count: Int, timeoutSeconds: Double = 10) async -> [ToneReading] {
    let rate = node.sampleRateHz
    let stop = node.stopRequester
    let timer = Task {
        try? await Task.sleep(for: .seconds(timeoutSeconds))
        if !Task.isCancelled { stop() }
    }
    defer { timer.cancel() }
    var readings: [ToneReading] = []
    let windowSeconds = Double(node.settings.fftSize) / rate
    for await event in node.events {
        if case .report(let report) = event, report.timeSeconds - windowSeconds >= Double(afterFrames) / rate {
            readings.append(report.reading)
            if readings.count >= count { break }
        }
    }
    return readings
}

extension JackServerTests {
    @Suite("Node against a real JACK server")
    struct NodeLoopTests {
        @Test("the node's own out wired to its in identifies its tone")
        func selfLoop() async throws {
            let server = try startServer()
            defer { server.stop() }
            var settings = nodeSettings(server, client: "loop")
                        settings.frequencyHz = 1234.5678
            settings.levelDBFS = -18
            settings.loopback = true
            let node = try Node(settings: settings)
            defer { node.stop() }
            #expect(node.inputPortName == "loop:in")
            #expect(node.outputPortName == "loop:out")
            let readings = await collectReadings(node, afterFrames: 2 * server.periodFrames, count: 8)
            #expect(readings.count == 8)
            for reading in readings {
                let frequency = try #require(reading.frequencyHz)
                #expect(abs(frequency - 1234.5678) < 0.001)
                #expect(abs((reading.levelDBFS ?? 0) + 18) < 0.01)
            }
            #expect(node.engine.capture.overflowCount.load(ordering: .relaxed) == 0)
        }

        @Test("a frequency change while playing is followed, and the new tone is exact")
        func glide() async throws {
            let server = try startServer()
            defer { server.stop() }
            var settings = nodeSettings(server, client: "glide")
                        settings.loopback = true
            let node = try Node(settings: settings)
            defer { node.stop() }
            _ = await collectReadings(node, afterFrames: 0, count: 2)
            node.engine.send(.tone(frequencyHz: 3000, sampleRateHz: node.sampleRateHz))
            let from = node.renderedFrames + 2 * server.periodFrames + 480
            let readings = await collectReadings(node, afterFrames: from, count: 4)
            #expect(readings.count == 4)
            for reading in readings { #expect(abs((reading.frequencyHz ?? 0) - 3000) < 0.001) }
        }

        @Test("a tone from one JACK client, through jack_thru, is identified by another")
        func throughJackThru() async throws {
            let server = try startServer()
            defer { server.stop() }
            let thru = try LiveCommand.jackTool("/usr/bin/jack_thru", server: server.name)
            defer { _ = thru }
            try waitForPort("jack_thru:input_1", server: server.name)

            var playerSettings = nodeSettings(server, client: "player")
                        playerSettings.frequencyHz = 2718.2818
            playerSettings.levelDBFS = -12
            playerSettings.connectOut = ["jack_thru:input_1"]
            let player = try Node(settings: playerSettings)
            defer { player.stop() }

            var listenerSettings = nodeSettings(server, client: "listener")
                        listenerSettings.connectIn = ["jack_thru:output_1"]
            listenerSettings.muted = true
            let listener = try Node(settings: listenerSettings)
            defer { listener.stop() }

            let readings = await collectReadings(listener, afterFrames: 4 * server.periodFrames, count: 6)
            #expect(readings.count == 6)
            for reading in readings {
                #expect(abs((reading.frequencyHz ?? 0) - 2718.2818) < 0.001)
                #expect(abs((reading.levelDBFS ?? 0) + 12) < 0.01)
            }
        }

        @Test("jack_simple_client's 240 Hz sine (a 200-sample table at 48 kHz) is identified")
        func simpleClient() async throws {
            let server = try startServer()
            defer { server.stop() }
            let simple = try LiveCommand.jackTool("/usr/bin/jack_simple_client", server: server.name)
            defer { _ = simple }
            try waitForPort("jack_simple_client:output1", server: server.name)
            var settings = nodeSettings(server, client: "ear")
                        settings.connectIn = ["jack_simple_client:output1"]
            settings.muted = true
            let node = try Node(settings: settings)
            defer { node.stop() }
            let readings = await collectReadings(node, afterFrames: 2 * server.periodFrames, count: 4)
            #expect(readings.count == 4)
            // The table is computed in float, so allow for its rounding.
            for reading in readings { #expect(abs((reading.frequencyHz ?? 0) - 240) < 0.001) }
        }

        @Test("a muted node hears silence as no tone", arguments: [64, 1024])
        func silence(periodFrames: Int) async throws {
            let server = try startServer(periodFrames: periodFrames)
            defer { server.stop() }
            var settings = nodeSettings(server, client: "quiet")
                        settings.muted = true
            settings.loopback = true
            settings.fftSize = 1024
            settings.hopFrames = 256
            let node = try Node(settings: settings)
            defer { node.stop() }
            let readings = await collectReadings(node, afterFrames: 0, count: 5)
            #expect(readings.count == 5)
            #expect(readings.allSatisfy { $0.frequencyHz == nil && !$0.invalidInput })
        }
    }
}

extension JackServerTests {
    @Suite("Pre-rendered audio played through a real JACK server")
    struct PlaybackTests {
        @Test("samples queued on the control side come out of `out`, in order and whole, and play() returns after the last")
        func playsQueuedSamples() async throws {
            let server = try startServer(periodFrames: 128)
            defer { server.stop() }
            var settings = nodeSettings(server, client: "player")
            settings.muted = true
            settings.loopback = true
            let node = try Node(settings: settings)
            defer { node.stop() }
            // Longer than the queue (4 s), so play() has to top it up as it drains.
            let rate = node.sampleRateHz
            let tone = (0..<Int(5 * rate)).map { Float(0.25 * sin(2 * Double.pi * 1500 * Double($0) / rate)) }
            let startFrames = node.renderedFrames
            let done = await node.play(tone)
            let elapsedFrames = node.renderedFrames - startFrames
            #expect(done)
            #expect(elapsedFrames >= tone.count && elapsedFrames < tone.count + Int(rate), "\(elapsedFrames)")
            let drained = node.engine.player.isDrained
            #expect(drained)
            // The loop heard a 1500 Hz tone at 0.25 peak (-12.04 dBFS) while it played.
            var heard: [ToneReading] = []
            for await event in node.events {
                guard case .report(let report) = event else { continue }
                if report.reading.frequencyHz != nil { heard.append(report.reading) }
                if heard.count >= 20 || report.reading.frequencyHz == nil && !heard.isEmpty { break }
            }
            #expect(heard.count >= 20)
            for reading in heard.suffix(10) {
                #expect(abs((reading.frequencyHz ?? 0) - 1500) < 0.001)
                #expect(abs((reading.levelDBFS ?? 0) - 20 * log10(0.25)) < 0.01)
            }
        }
    }
}
