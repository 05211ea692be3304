import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A qjackctl patchbay file (`<patchbay>`): sockets (a client regex and plug
/// regexes) and cables between an output socket and an input socket.
///
/// Matching follows qjackctl: client and plug names are regular expressions
/// anchored at both ends (`^(?:…)$`), matched against JACK client names and
/// short port names. A cable connects the output socket's plug `i` to the
/// input socket's plug `i`. `jack-audio` and `jack-midi` sockets are applied
/// (ALSA sockets are not JACK's). A socket marked `exclusive="on"` keeps only
/// the connections the file asks for: its ports' other connections are removed.
public struct Patchbay: Sendable, Equatable {
    public struct Socket: Sendable, Equatable {
        public var name: String
        public var clientPattern: String
        public var plugPatterns: [String]
        public var type: String
        /// `exclusive="on"`: the socket's ports keep no connection the file does not ask for.
        public var exclusive = false
    }

    /// The socket types ToneNode applies, with the JACK port type of each.
    public static let jackTypes = ["jack-audio": "32 bit float mono audio", "jack-midi": "8 bit raw midi"]

    public struct Cable: Sendable, Equatable {
        public var outputSocket: String
        public var inputSocket: String
    }

    public var name: String
    public var outputSockets: [Socket]
    public var inputSockets: [Socket]
    public var cables: [Cable]

    /// Parses a patchbay file's bytes; throws `PatchbayError` with a sentence a person can act on.
    public static func parse(_ data: Data) throws -> Patchbay {
        let delegate = PatchbayParserDelegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        // XMLParser's own error texts are numbers ("NSXMLParserErrorDomain error 4");
        // a person needs the line.
        guard parser.parse() else { throw PatchbayError.notXML(line: max(1, parser.lineNumber)) }
        guard delegate.sawPatchbay else {
            throw PatchbayError.notAPatchbay(line: delegate.rootLine, rootElement: delegate.rootElement ?? "")
        }
        let patchbay = Patchbay(name: delegate.name, outputSockets: delegate.outputs,
                                inputSockets: delegate.inputs, cables: delegate.cables)
        for cable in patchbay.cables {
            guard patchbay.outputSockets.contains(where: { $0.name == cable.outputSocket }) else {
                throw PatchbayError.unknownSocket(cable.outputSocket)
            }
            guard patchbay.inputSockets.contains(where: { $0.name == cable.inputSocket }) else {
                throw PatchbayError.unknownSocket(cable.inputSocket)
            }
        }
        for socket in patchbay.outputSockets + patchbay.inputSockets {
            for pattern in [socket.clientPattern] + socket.plugPatterns {
                _ = try anchoredRegex(pattern)
            }
        }
        return patchbay
    }

    /// The connections (source full name, destination full name) this patchbay
    /// asks for among the given ports of one socket type, in cable order,
    /// without duplicates.
    public func connections(outputPorts: [String], inputPorts: [String],
                            type: String = "jack-audio") throws -> [(String, String)] {
        var result: [(String, String)] = []
        var seen = Set<String>()
        for cable in cables {
            guard let output = outputSockets.first(where: { $0.name == cable.outputSocket }),
                  let input = inputSockets.first(where: { $0.name == cable.inputSocket }),
                  output.type == type, input.type == type else { continue }
            for plugIndex in 0..<min(output.plugPatterns.count, input.plugPatterns.count) {
                let sources = try Self.match(outputPorts, client: output.clientPattern, plug: output.plugPatterns[plugIndex])
                let destinations = try Self.match(inputPorts, client: input.clientPattern, plug: input.plugPatterns[plugIndex])
                for source in sources {
                    for destination in destinations where seen.insert(source + "\u{0}" + destination).inserted {
                        result.append((source, destination))
                    }
                }
            }
        }
        return result
    }

    /// The cable plugs (of one socket type) that match no port present now,
    /// one sentence each: what `patch` could not apply.
    public func unmatchedPlugs(outputPorts: [String], inputPorts: [String],
                               type: String = "jack-audio") throws -> [String] {
        var problems: [String] = []
        for cable in cables {
            guard let output = outputSockets.first(where: { $0.name == cable.outputSocket }),
                  let input = inputSockets.first(where: { $0.name == cable.inputSocket }),
                  output.type == type, input.type == type else { continue }
            for plugIndex in 0..<min(output.plugPatterns.count, input.plugPatterns.count) {
                for (socket, ports) in [(output, outputPorts), (input, inputPorts)] {
                    let plug = socket.plugPatterns[plugIndex]
                    guard try Self.match(ports, client: socket.clientPattern, plug: plug).isEmpty else { continue }
                    let clientPresent = try !Self.match(ports, client: socket.clientPattern, plug: ".*").isEmpty
                    problems.append("cable \"\(cable.outputSocket)\" -> \"\(cable.inputSocket)\": "
                        + (clientPresent ? "no port of client \(socket.clientPattern) matches \(plug)"
                                         : "no client matches \(socket.clientPattern) (is it running?)"))
                }
            }
        }
        return problems
    }

    /// The ports (of one socket type) that belong to an exclusive socket: only
    /// the file's connections may touch them.
    public func exclusivePorts(outputPorts: [String], inputPorts: [String], type: String = "jack-audio") throws -> Set<String> {
        var ports = Set<String>()
        for (sockets, candidates) in [(outputSockets, outputPorts), (inputSockets, inputPorts)] {
            for socket in sockets where socket.exclusive && socket.type == type {
                for plug in socket.plugPatterns {
                    ports.formUnion(try Self.match(candidates, client: socket.clientPattern, plug: plug))
                }
            }
        }
        return ports
    }

    /// Full port names whose client and short name match the anchored regexes.
    static func match(_ ports: [String], client: String, plug: String) throws -> [String] {
        let clientRegex = try anchoredRegex(client)
        let plugRegex = try anchoredRegex(plug)
        return ports.filter { fullName in
            guard let colon = fullName.firstIndex(of: ":") else { return false }
            let clientName = String(fullName[..<colon])
            let portName = String(fullName[fullName.index(after: colon)...])
            return matches(clientRegex, clientName) && matches(plugRegex, portName)
        }
    }

    static func anchoredRegex(_ pattern: String) throws -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: "^(?:" + pattern + ")$")
        } catch {
            throw PatchbayError.badRegex(pattern)
        }
    }

    static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// Problems with a patchbay file, each one sentence.
public enum PatchbayError: Error, CustomStringConvertible, Equatable {
    /// The bytes are not well-formed XML; `line` is where the parser stopped.
    case notXML(line: Int)
    /// Well-formed XML whose root element (on `line`) is not qjackctl's `<patchbay>`.
    case notAPatchbay(line: Int, rootElement: String)
    case unknownSocket(String)
    case badRegex(String)

    public var description: String {
        switch self {
        case .notXML(let line): "line \(line): not XML, so not a qjackctl patchbay file"
        case .notAPatchbay(let line, let root):
            "line \(line): the document is <\(root)>, not a qjackctl patchbay file (<patchbay>)"
        case .unknownSocket(let name): "a cable names the socket \"\(name)\", which the file does not define"
        case .badRegex(let pattern): "\"\(pattern)\" is not a valid regular expression"
        }
    }
}

/// Collects sockets and cables while XMLParser walks the file. Parser thread only.
private final class PatchbayParserDelegate: NSObject, XMLParserDelegate {
    var sawPatchbay = false
    /// The document's root element and its line, for the "not a patchbay" line.
    var rootElement: String?
    var rootLine = 1
    var name = ""
    var outputs: [Patchbay.Socket] = []
    var inputs: [Patchbay.Socket] = []
    var cables: [Patchbay.Cable] = []
    private var inOutputs = false
    private var current: Patchbay.Socket?
    private var plugText: String?

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if rootElement == nil {
            rootElement = element
            rootLine = max(1, parser.lineNumber)
        }
        switch element {
        case "patchbay":
            sawPatchbay = true
            name = attributes["name"] ?? ""
        case "output-sockets": inOutputs = true
        case "input-sockets": inOutputs = false
        case "socket":
            current = Patchbay.Socket(name: attributes["name"] ?? "", clientPattern: attributes["client"] ?? "",
                                      plugPatterns: [], type: attributes["type"] ?? "jack-audio",
                                      exclusive: attributes["exclusive"] == "on")
        case "plug": plugText = ""
        case "cable":
            cables.append(Patchbay.Cable(outputSocket: attributes["output"] ?? "", inputSocket: attributes["input"] ?? ""))
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        plugText? += string
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "plug":
            if let text = plugText { current?.plugPatterns.append(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            plugText = nil
        case "socket":
            if let socket = current { if inOutputs { outputs.append(socket) } else { inputs.append(socket) } }
            current = nil
        default: break
        }
    }
}
