/// A snapshot of the audio connections around the paths `audit` measures,
/// and the paths through it: JACK-free, so the walk and the isolation rule
/// are tested on hand-made graphs.
///
/// Ports are full JACK names (`client:port`). Inside a client, every audio
/// input is taken to feed every audio output of that client: JACK assumes
/// the same when it propagates latency for a client without a latency
/// callback, and a pair that carries nothing shows as a silent path.
public struct SignalGraph: Sendable, Equatable {
    /// For each input port reached: its client's audio outputs.
    public var outputsOfInput: [String: [String]]
    /// For each output port reached: the input ports it is connected to.
    public var inputsOfOutput: [String: [String]]

    public init(outputsOfInput: [String: [String]] = [:], inputsOfOutput: [String: [String]] = [:]) {
        self.outputsOfInput = outputsOfInput
        self.inputsOfOutput = inputsOfOutput
    }

    /// One connection, output to input.
    public struct Edge: Sendable, Hashable, CustomStringConvertible {
        public var output: String
        public var input: String
        public init(output: String, input: String) {
            self.output = output
            self.input = input
        }
        public var description: String { "\(output) → \(input)" }
    }

    /// A path from one of the entries (an input port our `out` feeds) to one
    /// of the exits (an output port our `in` reads): input, output of the
    /// same client, the input it is connected to, …, the exit.
    public struct Path: Sendable, Equatable {
        /// In signal order, an even count: (input, output) per client.
        public var ports: [String]
        public init(ports: [String]) { self.ports = ports }

        public var entry: String { ports.first ?? "" }
        public var exit: String { ports.last ?? "" }
        /// The connections between the clients on the path.
        public var edges: [Edge] {
            stride(from: 1, to: ports.count - 1, by: 2).map { Edge(output: ports[$0], input: ports[$0 + 1]) }
        }
        /// Input ports on the path, the entry first.
        public var inputs: [String] { stride(from: 0, to: ports.count, by: 2).map { ports[$0] } }
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case noPath(entries: [String], exits: [String])
        case tooManyPaths(limit: Int)

        public var description: String {
            switch self {
            case .noPath(let entries, let exits):
                return "no path leads from \(entries.joined(separator: ", ")) to \(exits.joined(separator: ", ")) "
                    + "(a client's input to its output, then its connections)"
            case .tooManyPaths(let limit):
                return "more than \(limit) paths lead from the --connect-out ports to the --connect-in ports: name fewer"
            }
        }
    }

    /// Builds the snapshot by walking out from `entries`, asking for each
    /// input its client's outputs and for each output its connections.
    public static func walk(from entries: [String], outputsOfInput: (String) -> [String],
                            inputsOfOutput: (String) -> [String]) -> SignalGraph {
        var graph = SignalGraph()
        var pending = entries
        while let input = pending.popLast() {
            guard graph.outputsOfInput[input] == nil else { continue }
            let outputs = outputsOfInput(input)
            graph.outputsOfInput[input] = outputs
            for output in outputs where graph.inputsOfOutput[output] == nil {
                let inputs = inputsOfOutput(output)
                graph.inputsOfOutput[output] = inputs
                pending += inputs
            }
        }
        return graph
    }

    /// Every loop-free path from an entry to an exit, in a stable order
    /// (entries as given, then connections in the order the snapshot holds them).
    /// A path may run on past an exit to another exit: each is a path of its own.
    /// - Throws: `Failure.noPath`, or `Failure.tooManyPaths` past `limit`.
    public func paths(from entries: [String], to exits: [String], limit: Int = 32) throws -> [Path] {
        let exitSet = Set(exits)
        var found: [Path] = []
        func extend(_ ports: [String], at input: String) throws {
            for output in outputsOfInput[input] ?? [] where !ports.contains(output) {
                let through = ports + [input, output]
                if exitSet.contains(output) {
                    guard found.count < limit else { throw Failure.tooManyPaths(limit: limit) }
                    found.append(Path(ports: through))
                }
                for next in inputsOfOutput[output] ?? [] where !through.contains(next) {
                    try extend(through, at: next)
                }
            }
        }
        for entry in entries { try extend([], at: entry) }
        guard !found.isEmpty else { throw Failure.noPath(entries: entries, exits: exits) }
        return found
    }

    /// The connections to remove while `path` is measured alone: every
    /// connection into an input on the path from an output in this snapshot
    /// that is not the path's own (another branch would add a second copy of
    /// the stimulus). Connections from outside the snapshot (a capture port)
    /// carry no stimulus and stay.
    public func connectionsToLift(isolating path: Path) -> [Edge] {
        let own = Set(path.edges)
        var lift: [Edge] = []
        for input in path.inputs {
            for (output, inputs) in inputsOfOutput.sorted(by: { $0.key < $1.key }) where inputs.contains(input) {
                let edge = Edge(output: output, input: input)
                if !own.contains(edge) { lift.append(edge) }
            }
        }
        return lift
    }
}
