import CJack
import Synchronization

/// A `JackPeer` behaviour: sends each queued 3-byte MIDI message once, at the
/// start of the next period, on MIDI output 0. Not real-time clean (the queue
/// is a mutex-guarded array): good enough for a test peer that sends a
/// handful of messages.
///
/// ```swift
/// let midi = MIDISender()
/// let peer = try JackPeer(name: "bender", server: server.name, midiOut: ["out"], process: midi.process)
/// midi.send(0x90, 69, 127)
/// ```
public final class MIDISender: Sendable {
    private let queue = Mutex<[(UInt8, UInt8, UInt8)]>([])

    public init() {}

    /// Queues one message for the next period. Any thread.
    public func send(_ status: UInt8, _ data1: UInt8, _ data2: UInt8) {
        queue.withLock { $0.append((status, data1, data2)) }
    }

    /// Queues every message for the same next period. Any thread.
    public func send(_ messages: [(UInt8, UInt8, UInt8)]) {
        queue.withLock { $0.append(contentsOf: messages) }
    }

    /// JACK thread only.
    public func process(_ cycle: JackPeer.Cycle) {
        guard let buffer = cycle.midiOut(0) else { return }
        queue.withLock { messages in
            for (status, data1, data2) in messages {
                let bytes: (UInt8, UInt8, UInt8) = (status, data1, data2)
                _ = withUnsafeBytes(of: bytes) {
                    jack_midi_event_write(buffer, 0, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 3)
                }
            }
            messages.removeAll(keepingCapacity: true)
        }
    }
}
