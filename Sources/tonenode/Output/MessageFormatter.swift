import Foundation
import ToneDSP

/// How decoded messages are printed: one line each, human or JSON.
/// `timeOffsetSeconds` is added to the message's time (a live node's clock
/// continues across server restarts).
enum MessageFormatter {
    /// One line; with `channel` (from 1, a node with several inputs) it starts with `[in_K] `.
    static func human(_ event: ModemEvent, channel: Int? = nil, timeOffsetSeconds: Double = 0) -> String {
        (channel.map { "[in_\($0)] " } ?? "") + untagged(event, timeOffsetSeconds: timeOffsetSeconds)
    }

    private static func untagged(_ event: ModemEvent, timeOffsetSeconds: Double) -> String {
        switch event {
        case .message(let message):
            let body = message.text.map { JSONLine.oneLine($0, forJSON: false) } ?? "base64:" + Data(message.bytes).base64EncodedString()
            return String(format: "%10.3f s  %@  snr %5.1f dB  ", message.timeSeconds + timeOffsetSeconds, message.profile.rawValue,
                          message.snrDB) + body
        case .incomplete(let message):
            return String(format: "%10.3f s  %@  incomplete: %d of %d frames arrived (message %04x), not delivered",
                          message.timeSeconds + timeOffsetSeconds, message.profile.rawValue, message.receivedFrames, message.frameCount,
                          Int(message.messageID))
        }
    }

    /// One JSON object; `channel` (from 1, a node with several inputs) comes first.
    /// Times and SNR have four decimals, `null` when not finite.
    static func json(_ event: ModemEvent, channel: Int? = nil, timeOffsetSeconds: Double = 0) -> String {
        var line = JSONLine()
        if let channel { line.add("channel", channel) }
        switch event {
        case .message(let message):
            line.add("time_s", message.timeSeconds + timeOffsetSeconds, .decimals(4))
            if let text = message.text { line.add("text", text) }
            line.add("base64", Data(message.bytes).base64EncodedString())
            line.add("profile", message.profile.rawValue)
            line.add("snr_db", message.snrDB, .decimals(4))
            line.add("frames", message.frameCount)
        case .incomplete(let message):
            line.add("time_s", message.timeSeconds + timeOffsetSeconds, .decimals(4))
            line.add("incomplete", true)
            line.add("profile", message.profile.rawValue)
            line.add("frames_received", message.receivedFrames)
            line.add("frames", message.frameCount)
            line.add("message_id", Int(message.messageID))
        }
        return line.description
    }
}
