import Foundation
import ToneDSP

/// How decoded messages are printed: one line each, human or JSON.
/// `timeOffsetSeconds` is added to the message's time (a live node's clock
/// continues across server restarts).
enum MessageFormatter {
    static func human(_ event: ModemEvent, timeOffsetSeconds: Double = 0) -> String {
        switch event {
        case .message(let message):
            let body = message.text.map(printable) ?? "base64:" + Data(message.bytes).base64EncodedString()
            return String(format: "%10.3f s  %@  snr %5.1f dB  ", message.timeSeconds + timeOffsetSeconds, message.profile.rawValue,
                          message.snrDB) + body
        case .incomplete(let message):
            return String(format: "%10.3f s  %@  incomplete: %d of %d frames arrived (message %04x), not delivered",
                          message.timeSeconds + timeOffsetSeconds, message.profile.rawValue, message.receivedFrames, message.frameCount,
                          Int(message.messageID))
        }
    }

    static func json(_ event: ModemEvent, timeOffsetSeconds: Double = 0) -> String {
        switch event {
        case .message(let message):
            var fields = ["\"time_s\":\(decimal(message.timeSeconds + timeOffsetSeconds))"]
            if let text = message.text { fields.append("\"text\":\(quoted(text))") }
            fields.append("\"base64\":\"\(Data(message.bytes).base64EncodedString())\"")
            fields.append("\"profile\":\"\(message.profile.rawValue)\"")
            fields.append("\"snr_db\":\(decimal(message.snrDB))")
            fields.append("\"frames\":\(message.frameCount)")
            return "{" + fields.joined(separator: ",") + "}"
        case .incomplete(let message):
            return "{\"time_s\":\(decimal(message.timeSeconds + timeOffsetSeconds)),\"incomplete\":true,"
                + "\"profile\":\"\(message.profile.rawValue)\",\"frames_received\":\(message.receivedFrames),"
                + "\"frames\":\(message.frameCount),\"message_id\":\(message.messageID)}"
        }
    }

    private static func decimal(_ value: Double) -> String {
        value.isFinite ? String(format: "%.4f", value) : "null"
    }

    /// Control characters shown as escapes, so one message stays one line.
    private static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
