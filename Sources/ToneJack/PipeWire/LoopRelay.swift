import CJack

/// A second JACK client that carries a client's own loop where the server
/// does not (PipeWire: a client's out wired to its own in carries silence).
/// Client `<name>-loop`, ports `in`/`out` (or `in_k`/`out_k` per channel),
/// its process callback `tn_loop_relay_process` (CJack/loop_relay.h) copies
/// each in to its out. Wired `out_k → relay in_k → relay out_k → in_k`, the
/// loop reads like jackd2's direct self-loop: one period (docs/pipewire.md).
///
/// Made only where the server is PipeWire (`JackLibrary.isPipeWire`); jackd2
/// keeps the direct connection. Main thread only.
public final class LoopRelay {
    public let client: JackClient
    private let relay: UnsafeMutablePointer<tn_loop_relay>
    private var closed = false

    /// Opens the relay on `serverName`, activates it and wires
    /// `outputs[k] → relay in_k → relay out_k → inputs[k]`.
    /// - Parameters:
    ///   - clientName: the looped client's name; the relay is `<clientName>-loop`.
    ///   - outputs, inputs: the looped client's full port names, one per channel.
    public init(clientName: String, serverName: String?, outputs: [String], inputs: [String]) throws {
        guard let relay = tn_loop_relay_create() else { throw JackError.callbackSetupFailed(0) }
        self.relay = relay
        do {
            client = try JackClient(name: clientName + "-loop", serverName: serverName)
        } catch {
            tn_loop_relay_destroy(relay)
            throw error
        }
        do {
            let pairs = zip(outputs, inputs)
            var relayPorts: [(input: String, output: String)] = []
            for (index, _) in pairs.enumerated() {
                let suffix = outputs.count == 1 ? "" : "_\(index + 1)"
                let input = try client.registerAudioPort("in" + suffix, isInput: true)
                let output = try client.registerAudioPort("out" + suffix, isInput: false)
                guard tn_loop_relay_add_channel(relay, input, output) == 0 else { throw JackError.callbackSetupFailed(1) }
                relayPorts.append((client.fullName(of: input), client.fullName(of: output)))
            }
            guard tn_loop_relay_install(client.handle, relay) == 0 else { throw JackError.callbackSetupFailed(2) }
            try client.activate()
            for ((output, input), ports) in zip(pairs, relayPorts) {
                try client.connect(from: output, to: ports.input)
                try client.connect(from: ports.output, to: input)
            }
        } catch {
            close()
            throw error
        }
    }

    /// Wires each `outputs[k]` of `client` to its `inputs[k]`: directly on
    /// jackd2 (returns nil, the loop JACK has always carried), through a
    /// `LoopRelay` on PipeWire (returned; the caller closes it with its client).
    public static func connect(_ client: JackClient, outputs: [String], inputs: [String]) throws -> LoopRelay? {
        guard JackLibrary.isPipeWire else {
            for (output, input) in zip(outputs, inputs) { try client.connect(from: output, to: input) }
            return nil
        }
        return try LoopRelay(clientName: client.name, serverName: client.serverName, outputs: outputs, inputs: inputs)
    }

    deinit { close() }

    /// Closes the relay client (its callbacks stop), then frees what they read. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        client.close()
        tn_loop_relay_destroy(relay)
    }
}
