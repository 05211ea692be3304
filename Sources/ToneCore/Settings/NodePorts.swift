/// Which ports a node registers: each command registers only the ports it
/// uses (`send` has no `in` or `midi_in`, `receive` no `out`), so a patchbay
/// or qjackctl shows nothing that does nothing.
public struct NodePorts: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `in` (or `in_1`, `in_2` …): analysed.
    public static let audioIn = NodePorts(rawValue: 1 << 0)
    /// `out` (or `out_1` …): the tone, beeps, sweeps, messages.
    public static let audioOut = NodePorts(rawValue: 1 << 1)
    /// `midi_in`: notes, pitch bend.
    public static let midiIn = NodePorts(rawValue: 1 << 2)

    public static let all: NodePorts = [.audioIn, .audioOut, .midiIn]
}
