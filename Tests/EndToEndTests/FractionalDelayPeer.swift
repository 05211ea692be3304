import CJack
import Foundation
import ToneCore
import ToneEngine
import ToneJack

/// A tool under test for `measure`: a JACK client (`in` → `out`) that delays
/// by a fractional number of frames with a Blackman-windowed sinc FIR, so a
/// loop through it has a known, non-integer round trip; optionally followed
/// by a one-pole low-pass `y = (1−a)·x + a·y₋₁` and a cubic `y + c·y³`, so
/// its response and distortion are known too; or by sparse `echoes` of the
/// filtered signal (a room, for the modem). Not part of the product.
final class FractionalDelayPeer: @unchecked Sendable {
    // @unchecked Sendable: everything is set up before activation; only the
    // JACK thread touches `history` afterwards.
    let client: OpaquePointer
    private var inPort: OpaquePointer?
    private var outPort: OpaquePointer?
    private let taps: UnsafeMutablePointer<Float>
    private let tapCount: Int
    /// The last `tapCount` inputs, newest first after `position`, twice over
    /// (a ring read without wrapping).
    private let history: UnsafeMutablePointer<Float>
    private var position = 0
    private let lowPassA: Float
    private let cubic: Float
    private var lowPassState: Float = 0
    private let echoCount: Int
    private let echoDelays: UnsafeMutablePointer<Int>
    private let echoGains: UnsafeMutablePointer<Float>
    /// The filtered signal, for the echoes (a ring, `echoRing.count` a power of two).
    private let echoRing: UnsafeMutablePointer<Float>
    private let echoMask: Int
    private var echoPosition = 0
    /// The delay the filter applies: `halfLength + fraction` frames.
    let delayFrames: Double

    init(name: String, server: String, fraction: Double, gain: Double = 1, halfLength: Int = 64,
         lowPassA: Double = 0, cubic: Double = 0, echoes: [(delayFrames: Int, gain: Float)] = []) throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = tn_client_open(name, JackNoStartServer, &status, server) else {
            throw JackError.serverUnreachable(server: server)
        }
        self.client = client
        self.lowPassA = Float(lowPassA)
        self.cubic = Float(cubic)
        tapCount = 2 * halfLength + 1
        delayFrames = Double(halfLength) + fraction
        taps = .allocate(capacity: tapCount)
        for index in 0..<tapCount {
            let t = Double(index - halfLength) - fraction
            let sinc = t == 0 ? 1 : sin(Double.pi * t) / (Double.pi * t)
            let position = (t + Double(halfLength) + 1) / Double(2 * halfLength + 2)
            let blackman = 0.42 - 0.5 * cos(2 * Double.pi * position) + 0.08 * cos(4 * Double.pi * position)
            taps[index] = Float(gain * sinc * blackman)
        }
        history = .allocate(capacity: 2 * tapCount)
        history.initialize(repeating: 0, count: 2 * tapCount)
        // Raw buffers: the process callback must stay cheap in debug and sanitizer builds.
        echoCount = echoes.count
        echoDelays = .allocate(capacity: max(1, echoes.count))
        echoGains = .allocate(capacity: max(1, echoes.count))
        for (index, echo) in echoes.enumerated() {
            echoDelays[index] = echo.delayFrames
            echoGains[index] = echo.gain
        }
        var ringSize = 1
        while ringSize <= (echoes.map(\.delayFrames).max() ?? 0) { ringSize *= 2 }
        echoRing = .allocate(capacity: ringSize)
        echoRing.initialize(repeating: 0, count: ringSize)
        echoMask = ringSize - 1
        inPort = jack_port_register(client, "in", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0)
        outPort = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0)
        jack_set_process_callback(client, { frames, context in
            guard let context else { return 0 }
            Unmanaged<FractionalDelayPeer>.fromOpaque(context).takeUnretainedValue().process(Int(frames))
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard jack_activate(client) == 0 else { throw JackError.activationFailed }
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
        taps.deallocate()
        history.deallocate()
        echoRing.deallocate()
        echoDelays.deallocate()
        echoGains.deallocate()
    }

    private func process(_ frames: Int) {
        guard let inPort, let outPort,
              let input = jack_port_get_buffer(inPort, jack_nframes_t(frames))?.assumingMemoryBound(to: Float.self),
              let output = jack_port_get_buffer(outPort, jack_nframes_t(frames))?.assumingMemoryBound(to: Float.self)
        else { return }
        for n in 0..<frames {
            // y[n] = Σ taps[j]·x[n − j]; history[position + j] holds x[n − j].
            position = position == 0 ? tapCount - 1 : position - 1
            history[position] = input[n]
            history[position + tapCount] = input[n]
            var sum: Float = 0
            let newest = history + position
            for j in 0..<tapCount { sum += taps[j] * newest[j] }
            lowPassState = (1 - lowPassA) * sum + lowPassA * lowPassState
            let y = lowPassState
            var out = y + cubic * y * y * y
            echoRing[echoPosition] = out
            for index in 0..<echoCount { out += echoGains[index] * echoRing[(echoPosition - echoDelays[index]) & echoMask] }
            echoPosition = (echoPosition + 1) & echoMask
            output[n] = out
        }
    }
}
