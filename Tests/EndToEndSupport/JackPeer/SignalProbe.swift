import Foundation
import Synchronization

/// A `JackPeer` behaviour: plays a chosen signal on audio output 0 and
/// watches audio input 0 (frames seen, non-finite samples, peak).
///
/// ```swift
/// let probe = SignalProbe(.nonFinite)
/// let peer = try JackPeer(name: "peer", server: server.name, audioIn: ["in"], audioOut: ["out"],
///                         process: probe.process)
/// ```
public final class SignalProbe: @unchecked Sendable {
    // @unchecked Sendable: the phase is touched by the JACK thread only;
    // everything else is atomic or immutable.
    public enum Signal: Int, Sendable {
        /// NaN, ±Inf, a denormal, −NaN, 0.5 and a signalling NaN, over and over.
        case nonFinite = 0
        /// 0.25 · sin(2π · 500 Hz · t).
        case sine500Hz = 1
        /// 0.
        case silence = 2
    }

    private let signalRaw: Atomic<Int>
    public let framesSeen = Atomic<Int>(0)
    public let nonFiniteSeen = Atomic<Int>(0)
    private let peakSeenBits = Atomic<UInt32>(0)
    /// The sine's phase, in cycles. JACK thread only.
    private let phase = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    /// The non-finite pattern, in a raw buffer (nothing allocated per cycle).
    private static let patternCount = 7
    private let pattern = UnsafeMutablePointer<Float>.allocate(capacity: SignalProbe.patternCount)

    public init(_ signal: Signal) {
        signalRaw = Atomic(signal.rawValue)
        phase.initialize(to: 0)
        pattern.initialize(from: [.nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.nan, 0.5, .signalingNaN],
                           count: Self.patternCount)
    }

    deinit {
        phase.deallocate()
        pattern.deallocate()
    }

    /// What plays from the next cycle on. Any thread.
    public var signal: Signal {
        get { Signal(rawValue: signalRaw.load(ordering: .relaxed)) ?? .silence }
        set { signalRaw.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// The largest magnitude seen on the input so far.
    public var peakSeen: Float { Float(bitPattern: peakSeenBits.load(ordering: .relaxed)) }

    /// JACK thread only.
    public func process(_ cycle: JackPeer.Cycle) {
        guard let out = cycle.audioOut(0), let input = cycle.audioIn(0) else { return }
        let signal = signal
        let step = 500 / cycle.sampleRateHz
        var peak = peakSeen
        var nonFinite = 0
        for n in 0..<cycle.frames {
            switch signal {
            case .nonFinite:
                out[n] = pattern[n % Self.patternCount]
            case .sine500Hz:
                out[n] = Float(0.25 * sin(2 * Double.pi * phase.pointee))
                phase.pointee = (phase.pointee + step).truncatingRemainder(dividingBy: 1)
            case .silence:
                out[n] = 0
            }
            let v = input[n]
            if !v.isFinite { nonFinite += 1 }
            if abs(v) > peak { peak = abs(v) }
        }
        if nonFinite > 0 { nonFiniteSeen.wrappingAdd(nonFinite, ordering: .relaxed) }
        peakSeenBits.store(peak.bitPattern, ordering: .relaxed)
        framesSeen.wrappingAdd(cycle.frames, ordering: .relaxed)
    }
}
