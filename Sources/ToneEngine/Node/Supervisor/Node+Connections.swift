import ToneJack

extension Node {
    /// Every connection our ports have now, whoever made it.
    public func connections() -> [NodeConnection] {
        let ourPrefix = client.name + ":"
        func short(_ fullName: String) -> String { String(fullName.dropFirst(ourPrefix.count)) }
        let inputs = inputPortNames + [midiInputPortName]
        let intoInput = inputs.flatMap { input in
            client.connections(ofPort: input).map {
                outputPortNames.contains($0) ? NodeConnection.selfLoop(output: short($0), input: short(input))
                                             : .intoInput(from: $0, ours: short(input))
            }
        }
        let fromOutput = outputPortNames.flatMap { output in
            client.connections(ofPort: output).filter { !inputPortNames.contains($0) }.map {
                NodeConnection.fromOutput(ours: short(output), to: $0)
            }
        }
        return intoInput + fromOutput
    }

    /// The inputs (channels, from 0) that nothing feeds in `connections`;
    /// with `countingOwn`, those the node's own `--connect-in` or `--loopback`
    /// feed count as fed (jack2 shows a connection just made from a later period on).
    func unconnectedInputs(in connections: [NodeConnection], countingOwn: Bool = false) -> Set<Int> {
        var fed = Set<String>()
        for connection in connections {
            switch connection {
            case .intoInput(_, let input), .selfLoop(_, let input): fed.insert(input)
            case .fromOutput: break
            }
        }
        let ourPrefix = client.name + ":"
        return Set(inputPortNames.indices.filter { index in
            if countingOwn && (settings.loopback || settings.connectIn.count > index) { return false }
            return !fed.contains(String(inputPortNames[index].dropFirst(ourPrefix.count)))
        })
    }

    /// Makes each connection; returns those that could not be made yet.
    func restore(_ connections: [NodeConnection]) -> [NodeConnection] {
        connections.filter { connection in
            let ours = client.name + ":"
            let (source, destination) = switch connection {
            case .intoInput(let port, let input): (port, ours + input)
            case .fromOutput(let output, let port): (ours + output, port)
            case .selfLoop(let output, let input): (ours + output, ours + input)
            }
            return (try? client.connect(from: source, to: destination)) == nil
        }
    }
}
