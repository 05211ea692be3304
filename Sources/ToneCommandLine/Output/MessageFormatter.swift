import Foundation
import ToneDSP
import ToneModem

/// How decoded messages are printed: one line each, human or JSON.
/// `timeOffsetSeconds` is added to the message's time (a live node's clock
/// continues across server restarts).
public enum MessageFormatter {
    /// One line; with `channel` (from 1, a node with several inputs) it starts with `[in_K] `.
    public static func human(_ event: ModemEvent, channel: Int? = nil, timeOffsetSeconds: Double = 0) -> String {
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
        case .cable(let reception, let seconds):
            guard let bytes = reception.message else {
                return String(format: "%10.3f s  cable  ", seconds + timeOffsetSeconds) + reception.summary
            }
            return cableHuman(bytes, timeSeconds: seconds + timeOffsetSeconds, snrDB: reception.meanSNRdB)
        }
    }

    /// One JSON object; `channel` (from 1, a node with several inputs) comes first.
    /// Times and SNR have four decimals, `null` when not finite.
    public static func json(_ event: ModemEvent, channel: Int? = nil, timeOffsetSeconds: Double = 0) -> String {
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
        case .cable(let reception, let seconds):
            line.add("time_s", seconds + timeOffsetSeconds, .decimals(4))
            if let bytes = reception.message {
                addCable(bytes, snrDB: reception.meanSNRdB, frames: reception.header?.frameCount ?? 0, to: &line)
            } else {
                line.add("incomplete", true)
                line.add("profile", "cable")
                if let header = reception.header {
                    line.add("frames_received", header.frameCount - reception.damagedFrames - reception.truncatedFrames)
                    line.add("frames", header.frameCount)
                    line.add("frames_damaged", reception.damagedFrames)
                    line.add("frames_cut_off", reception.truncatedFrames)
                }
                line.add("reason", reception.summary)
            }
        }
        return line.description
    }

    /// A cable message's line after its time: profile, SNR, the text or base64.
    public static func cableHuman(_ bytes: [UInt8], timeSeconds: Double, snrDB: Double) -> String {
        let body = String(validating: bytes, as: UTF8.self).map { JSONLine.oneLine($0, forJSON: false) }
            ?? "base64:" + Data(bytes).base64EncodedString()
        return String(format: "%10.3f s  cable  snr %5.1f dB  ", timeSeconds, snrDB) + body
    }

    /// A cable message's JSON fields after `time_s`.
    public static func addCable(_ bytes: [UInt8], snrDB: Double, frames: Int, to line: inout JSONLine) {
        if let text = String(validating: bytes, as: UTF8.self) { line.add("text", text) }
        line.add("base64", Data(bytes).base64EncodedString())
        line.add("profile", "cable")
        line.add("snr_db", snrDB, .decimals(4))
        line.add("frames", frames)
    }
}
