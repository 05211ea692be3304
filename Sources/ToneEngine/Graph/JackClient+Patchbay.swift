import ToneCore
import ToneJack

extension JackClient {
    /// What applying a patchbay did.
    public struct PatchResult {
        /// Connections the file asks for that were made now.
        public var connected: [(String, String)] = []
        /// Connections the file asks for that were there already.
        public var alreadyPresent: [(String, String)] = []
        /// Cable plugs that match no port present now (a client not running, a port missing), one sentence each.
        public var notPossible: [String] = []
        /// Connections removed because they touched a port of an exclusive socket.
        public var disconnected: [(String, String)] = []
    }

    /// Applies a patchbay: makes every connection it asks for among the ports
    /// present now, audio and MIDI, then removes any other connection of a
    /// port that belongs to an exclusive socket.
    public func apply(_ patchbay: Patchbay) throws -> PatchResult {
        var result = PatchResult()
        for (socketType, portType) in Patchbay.jackTypes.sorted(by: { $0.key < $1.key }) {
            let outputs = portNames(type: portType, outputs: true)
            let inputs = portNames(type: portType, outputs: false)
            let wanted = try patchbay.connections(outputPorts: outputs, inputPorts: inputs, type: socketType)
            for (source, destination) in wanted {
                if connections(ofPort: source).contains(destination) {
                    result.alreadyPresent.append((source, destination))
                } else {
                    try connect(from: source, to: destination)
                    result.connected.append((source, destination))
                }
            }
            result.notPossible += try patchbay.unmatchedPlugs(outputPorts: outputs, inputPorts: inputs, type: socketType)
            let keep = Set(wanted.map { $0.0 + "\u{0}" + $0.1 })
            let outputSet = Set(outputs)
            for port in try patchbay.exclusivePorts(outputPorts: outputs, inputPorts: inputs, type: socketType).sorted() {
                for peer in connections(ofPort: port) {
                    let (source, destination) = outputSet.contains(port) ? (port, peer) : (peer, port)
                    guard !keep.contains(source + "\u{0}" + destination),
                          !result.disconnected.contains(where: { $0 == (source, destination) }) else { continue }
                    try disconnect(from: source, to: destination)
                    result.disconnected.append((source, destination))
                }
            }
        }
        return result
    }
}
