import CJack
import Foundation
import Synchronization
import ToneCore
import ToneEngine
import ToneJack

/// A minimal JACK MIDI sender for tests: a MIDI output port `out` that sends
/// each queued 3-byte message once, at the start of the next period. Not
/// part of the product (and not real-time clean: it is a test peer).
final class MIDIPeer: @unchecked Sendable {
    // @unchecked Sendable: the port is set before activation; messages go through a mutex.
    let client: OpaquePointer
    private(set) var port: OpaquePointer?
    private let queue = Mutex<[[UInt8]]>([])
    let name: String

    init(name: String, server: String) throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = tn_client_open(name, JackNoStartServer, &status, server) else {
            throw JackError.serverUnreachable(server: server)
        }
        self.client = client
        self.name = jack_get_client_name(client).map { String(cString: $0) } ?? name
        port = jack_port_register(client, "out", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0)
        jack_set_process_callback(client, { frames, context in
            guard let context else { return 0 }
            Unmanaged<MIDIPeer>.fromOpaque(context).takeUnretainedValue().process(frames)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard jack_activate(client) == 0 else { throw JackError.activationFailed }
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
    }

    func send(_ status: UInt8, _ data1: UInt8, _ data2: UInt8) {
        queue.withLock { $0.append([status, data1, data2]) }
    }

    private func process(_ frames: jack_nframes_t) {
        guard let port, let buffer = jack_port_get_buffer(port, frames) else { return }
        jack_midi_clear_buffer(buffer)
        let messages = queue.withLock { queue -> [[UInt8]] in
            defer { queue.removeAll() }
            return queue
        }
        for message in messages {
            _ = message.withUnsafeBufferPointer { jack_midi_event_write(buffer, 0, $0.baseAddress, 3) }
        }
    }
}
