import CJack
import Foundation
import Synchronization
import Testing
import ToneDSP
import ToneCore
import ToneEngine
import ToneJack

/// A minimal JACK client for tests: plays a chosen signal on `out` and
/// watches `in` for non-finite samples. Not part of the product.
final class TestPeer: @unchecked Sendable {
    // @unchecked Sendable: ports are set before activation; the rest is atomic.
    enum Signal: Int { case nonFinite = 0, sine500Hz = 1 }

    let client: OpaquePointer
    private(set) var outPort: OpaquePointer?
    private(set) var inPort: OpaquePointer?
    let signal = Atomic<Int>(Signal.nonFinite.rawValue)
    let framesSeen = Atomic<Int>(0)
    let nonFiniteSeen = Atomic<Int>(0)
    let peakSeenBits = Atomic<UInt32>(0)
    private let phase = UnsafeMutablePointer<Double>.allocate(capacity: 1)

    init(name: String, server: String) throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = tn_client_open(name, JackNoStartServer, &status, server) else {
            throw JackError.serverUnreachable(server: server)
        }
        self.client = client
        phase.initialize(to: 0)
        outPort = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0)
        inPort = jack_port_register(client, "in", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0)
        jack_set_process_callback(client, { frames, context in
            guard let context else { return 0 }
            Unmanaged<TestPeer>.fromOpaque(context).takeUnretainedValue().process(Int(frames))
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard jack_activate(client) == 0 else { throw JackError.activationFailed }
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
        phase.deallocate()
    }

    private func process(_ frames: Int) {
        guard let outPort, let inPort,
              let out = jack_port_get_buffer(outPort, jack_nframes_t(frames))?.assumingMemoryBound(to: Float.self),
              let input = jack_port_get_buffer(inPort, jack_nframes_t(frames))?.assumingMemoryBound(to: Float.self)
        else { return }
        let rate = Double(jack_get_sample_rate(client))
        let pattern: [Float] = [.nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.nan, 0.5, .signalingNaN]
        for n in 0..<frames {
            if signal.load(ordering: .relaxed) == Signal.nonFinite.rawValue {
                out[n] = pattern[n % pattern.count]
            } else {
                out[n] = Float(0.25 * sin(2 * Double.pi * phase.pointee))
                phase.pointee = (phase.pointee + 500 / rate).truncatingRemainder(dividingBy: 1)
            }
            let v = input[n]
            if !v.isFinite { nonFiniteSeen.wrappingAdd(1, ordering: .relaxed) }
            if abs(v) > Float(bitPattern: peakSeenBits.load(ordering: .relaxed)) {
                peakSeenBits.store(abs(v).bitPattern, ordering: .relaxed)
            }
        }
        framesSeen.wrappingAdd(frames, ordering: .relaxed)
    }
}

extension JackServerTests {
    @Suite("Non-finite audio on the input")
    struct NonFiniteInputTests {
        @Test("NaN/Inf on `in` never reach `out`, are reported as invalid, and the detector recovers")
        func nanInput() async throws {
            let server = try startServer()
            defer { server.stop() }
            let peer = try TestPeer(name: "peer", server: server.name)
            var settings = nodeSettings(server, client: "victim")
                        settings.frequencyHz = 1000
            settings.connectIn = ["peer:out"]
            settings.connectOut = ["peer:in"]
            let node = try Node(settings: settings)
            defer { node.stop() }

            let poisoned = await collectReadings(node, afterFrames: 2 * server.periodFrames, count: 10, timeoutSeconds: 5)
            #expect(poisoned.count == 10)
            #expect(poisoned.allSatisfy { $0.invalidInput && $0.frequencyHz == nil })

            peer.signal.store(TestPeer.Signal.sine500Hz.rawValue, ordering: .relaxed)
            let switchedAt = node.engine.renderedFrames.load(ordering: .relaxed) + 4 * server.periodFrames
            let clean = await collectReadings(node, afterFrames: switchedAt, count: 4, timeoutSeconds: 5)
            #expect(clean.count == 4)
            for reading in clean {
                #expect(!reading.invalidInput)
                #expect(abs((reading.frequencyHz ?? 0) - 500) < 0.001)
            }
            #expect(peer.framesSeen.load(ordering: .relaxed) > 0)
            #expect(peer.nonFiniteSeen.load(ordering: .relaxed) == 0, "our output carried NaN/Inf")
            let peak = Float(bitPattern: peer.peakSeenBits.load(ordering: .relaxed))
            #expect(abs(Double(peak) - Decibels.amplitude(dbfs: -18)) < 0.01, "our output kept playing the tone")
        }
    }
}
