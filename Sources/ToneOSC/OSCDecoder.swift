import CLiblo
import ToneCore

/// Turns one OSC datagram into a control command, with liblo doing the OSC
/// parsing (`lo_message_deserialise`) and ToneNode the checking.
///
/// Numbers may come as `i`, `h`, `f` or `d` (oscsend's `i 1` and `f 1.0` mean
/// the same); `mute` also takes `T`/`F`. Everything else is a `Problem`
/// naming the message as it arrived.
public enum OSCDecoder {
    /// Paths ToneNode answers, under `/tonenode/`.
    public static let prefix = ControlCommand.oscPrefix

    public static func command(fromPacket packet: UnsafeRawBufferPointer) throws(ControlCommand.Problem) -> ControlCommand {
        guard packet.count > 0 else { throw .init("empty OSC packet") }
        if packet.starts(with: Array("#bundle".utf8)) {
            throw .init("OSC bundle (\(packet.count) bytes): bundles are not supported; send single messages")
        }
        // liblo wants a mutable buffer; it only reads it.
        var bytes = Array(packet)
        var result: Int32 = 0
        let message = bytes.withUnsafeMutableBytes { lo_message_deserialise($0.baseAddress, $0.count, &result) }
        guard let message else {
            throw .init("malformed OSC packet (\(packet.count) bytes; liblo error \(result)), ignored")
        }
        defer { lo_message_free(message) }
        let path = bytes.withUnsafeMutableBytes { raw -> String in
            guard let cPath = lo_get_path(raw.baseAddress, raw.count) else { return "" }
            return String(cString: cPath)
        }
        let types = lo_message_get_types(message).map { String(cString: $0) } ?? ""
        let count = Int(lo_message_get_argc(message))
        var numbers: [Double] = []
        var shown: [String] = []
        let argv = lo_message_get_argv(message)
        for (index, type) in types.utf8.prefix(count).enumerated() {
            // T and F carry no data (their argv entry may be empty).
            if type == UInt8(ascii: "T") || type == UInt8(ascii: "F") {
                numbers.append(type == UInt8(ascii: "T") ? 1 : 0)
                shown.append(type == UInt8(ascii: "T") ? "true" : "false")
                continue
            }
            guard let arg = argv?[index] else { break }
            // Read just the argument's own bytes: liblo stores a float in 4
            // bytes, so loading the whole `lo_arg` union (`arg.pointee`)
            // would read past it (AddressSanitizer caught that).
            let raw = UnsafeRawPointer(arg)
            let value: Double?
            switch UInt8(type) {
            case UInt8(ascii: "i"): value = Double(raw.loadUnaligned(as: Int32.self))
            case UInt8(ascii: "h"): value = Double(raw.loadUnaligned(as: Int64.self))
            case UInt8(ascii: "f"): value = Double(raw.loadUnaligned(as: Float.self))
            case UInt8(ascii: "d"): value = raw.loadUnaligned(as: Double.self)
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                value = nil
                // The string's bytes start at the argument itself (liblo checked the terminator).
                shown.append("\"" + String(cString: raw.assumingMemoryBound(to: CChar.self)) + "\"")
            default: value = nil
            }
            if let value {
                numbers.append(value)
                shown.append(format(value))
            } else if shown.count <= index {
                shown.append("<\(Character(Unicode.Scalar(type)))>")
            }
        }
        let described = "OSC \(path) ,\(types)" + (shown.isEmpty ? "" : " " + shown.joined(separator: " "))
        guard path.hasPrefix(prefix) else {
            throw .init("\(described): unknown path (ToneNode listens under \(prefix))")
        }
        let name = String(path.dropFirst(prefix.count))
        guard numbers.count == count else {
            throw .init("\(described): arguments must be numbers (i, h, f or d\(name == ControlCommand.muteName ? ", or T/F" : ""))")
        }
        do throws(ControlCommand.Problem) {
            return try ControlCommand.make(name, numbers: numbers)
        } catch {
            throw .init("\(described): \(error.description)")
        }
    }
}
