import CLiblo

#if canImport(Glibc)
import Glibc
#endif

/// One OSC argument as ToneNode sends and reads it.
public enum OSCValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case int(Int32)
    case float(Double)

    public var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .int(let value): String(value)
        case .float(let value): String(value)
        }
    }

    public var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    public var intValue: Int32? { if case .int(let value) = self { value } else { nil } }
}

/// One OSC message received, with the sender's URL (`osc.udp://host:port/`) to answer to.
public struct OSCMessage: Sendable, CustomStringConvertible {
    public let path: String
    public let arguments: [OSCValue]
    public let senderURL: String?

    public var description: String { ([path] + arguments.map(\.description)).joined(separator: " ") }
}

/// A UDP OSC endpoint through liblo: a socket on a free port of its own that
/// sends messages (from that socket, so the peer can answer to it) and
/// receives them with a bounded wait. Not for the audio thread; used by the
/// NSM client and by test peers. One thread at a time.
public final class OSCEndpoint: @unchecked Sendable {
    // @unchecked Sendable: the liblo server is used by one thread at a time
    // (the owner hands it over, never shares it).
    private let server: lo_server
    private let inbox = Inbox()

    /// Messages collected by liblo's handler during one `receive`.
    private final class Inbox {
        var messages: [OSCMessage] = []
    }

    /// Opens a UDP socket on a free port (all interfaces, as NSM servers expect).
    public init() throws(OSCError) {
        guard let server = lo_server_new_with_proto(nil, LO_UDP, nil) else {
            throw .noSocket
        }
        self.server = server
        let handler: lo_method_handler = { path, types, argv, argc, message, userData in
            guard let userData, let path else { return 0 }
            let inbox = Unmanaged<Inbox>.fromOpaque(userData).takeUnretainedValue()
            inbox.messages.append(OSCEndpoint.decode(path: path, types: types, argv: argv,
                                                     count: Int(argc), message: message))
            return 0
        }
        lo_server_add_method(server, nil, nil, handler, Unmanaged.passUnretained(inbox).toOpaque())
    }

    deinit { lo_server_free(server) }

    /// This endpoint's own URL, as peers see it.
    public var url: String {
        guard let cURL = lo_server_get_url(server) else { return "" }
        defer { free(cURL) }
        return String(cString: cURL)
    }

    /// The UDP port it listens on.
    public var port: Int { Int(lo_server_get_port(server)) }

    /// Checks an `osc.udp://host:port/` URL; nil when it is good, else the reason.
    public static func problem(url: String) -> String? {
        guard url.hasPrefix("osc.udp://") else { return "'\(url)' is not an osc.udp:// URL" }
        guard let cHost = lo_url_get_hostname(url) else { return "'\(url)' has no host" }
        let host = String(cString: cHost)
        free(cHost)
        guard let cPort = lo_url_get_port(url) else { return "'\(url)' has no port" }
        let port = String(cString: cPort)
        free(cPort)
        guard !host.isEmpty else { return "'\(url)' has no host" }
        guard let number = Int(port), (1...65_535).contains(number) else { return "'\(url)' has no valid port" }
        return nil
    }

    /// Sends one message to `url` from this endpoint's socket.
    public func send(to url: String, path: String, _ arguments: [OSCValue]) throws(OSCError) {
        guard let address = lo_address_new_from_url(url) else {
            throw .badAddress(url: url)
        }
        defer { lo_address_free(address) }
        guard let message = lo_message_new() else { throw .outOfMemory }
        defer { lo_message_free(message) }
        for argument in arguments {
            switch argument {
            case .string(let text): lo_message_add_string(message, text)
            case .int(let value): lo_message_add_int32(message, value)
            case .float(let value): lo_message_add_double(message, value)
            }
        }
        guard lo_send_message_from(address, server, path, message) >= 0 else {
            let reason = lo_address_errstr(address).map { String(cString: $0) } ?? "unknown error"
            throw .cannotSend(path: path, url: url, reason: reason)
        }
    }

    /// The next message, waiting up to `timeoutMilliseconds`; nil when none came.
    public func receive(timeoutMilliseconds: Int) -> OSCMessage? {
        if inbox.messages.isEmpty {
            _ = lo_server_recv_noblock(server, Int32(timeoutMilliseconds))
        }
        return inbox.messages.isEmpty ? nil : inbox.messages.removeFirst()
    }

    private static func decode(path: UnsafePointer<CChar>, types: UnsafePointer<CChar>?,
                               argv: UnsafeMutablePointer<UnsafeMutablePointer<lo_arg>?>?,
                               count: Int, message: lo_message?) -> OSCMessage {
        var arguments: [OSCValue] = []
        let typeText = types.map { String(cString: $0) } ?? ""
        for (index, type) in typeText.utf8.prefix(count).enumerated() {
            guard let arg = argv?[index] else { break }
            // Read only the argument's own bytes (see OSCDecoder).
            let raw = UnsafeRawPointer(arg)
            switch UInt8(type) {
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                arguments.append(.string(String(cString: raw.assumingMemoryBound(to: CChar.self))))
            case UInt8(ascii: "i"): arguments.append(.int(raw.loadUnaligned(as: Int32.self)))
            case UInt8(ascii: "h"): arguments.append(.int(Int32(clamping: raw.loadUnaligned(as: Int64.self))))
            case UInt8(ascii: "f"): arguments.append(.float(Double(raw.loadUnaligned(as: Float.self))))
            case UInt8(ascii: "d"): arguments.append(.float(raw.loadUnaligned(as: Double.self)))
            default: break
            }
        }
        var sender: String?
        if let message, let source = lo_message_get_source(message), let cURL = lo_address_get_url(source) {
            sender = String(cString: cURL)
            free(cURL)
        }
        return OSCMessage(path: String(cString: path), arguments: arguments, senderURL: sender)
    }
}
