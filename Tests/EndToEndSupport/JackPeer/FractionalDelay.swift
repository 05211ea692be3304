import Foundation

/// A `JackPeer` behaviour: a known tool under test for `measure` and the
/// modem. Delays by a fractional number of frames with a Blackman-windowed
/// sinc FIR, so a loop through it has a known, non-integer round trip;
/// optionally followed by a one-pole low-pass `y = (1−a)·x + a·y₋₁` and a
/// cubic `y + c·y³`, so its response and distortion are known too; or by
/// sparse `echoes` of the filtered signal (a room, for the modem).
///
/// ```swift
/// let delay = FractionalDelay(fraction: 0.37, gain: 0.5)
/// let peer = try JackPeer(name: "fracdelay", server: server.name, audioIn: ["in"], audioOut: ["out"],
///                         process: delay.process)
/// ```
public final class FractionalDelay: @unchecked Sendable {
    // @unchecked Sendable: everything is set up before the peer activates;
    // afterwards only the JACK thread touches the state (one peer per instance).
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
    /// The filtered signal, for the echoes (a ring, its size a power of two).
    private let echoRing: UnsafeMutablePointer<Float>
    private let echoMask: Int
    private var echoPosition = 0
    /// The delay the filter applies: `halfLength + fraction` frames.
    public let delayFrames: Double

    public init(fraction: Double, gain: Double = 1, halfLength: Int = 64, lowPassA: Double = 0, cubic: Double = 0,
                echoes: [(delayFrames: Int, gain: Float)] = []) {
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
    }

    deinit {
        taps.deallocate()
        history.deallocate()
        echoRing.deallocate()
        echoDelays.deallocate()
        echoGains.deallocate()
    }

    /// Audio input 0 through the filter to audio output 0. JACK thread only.
    public func process(_ cycle: JackPeer.Cycle) {
        guard let input = cycle.audioIn(0), let output = cycle.audioOut(0) else { return }
        for n in 0..<cycle.frames {
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
