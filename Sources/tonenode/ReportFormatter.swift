import Foundation
import ToneDSP

/// Turns reports into lines: one JSON object, or a line for people.
enum ReportFormatter {
    /// `{"time_s":…,"freq_hz":…|null,"level_dbfs":…|null,"snr_db":…|null,"rms_dbfs":…|null,"invalid":false}`;
    /// with `channel` (a node with several inputs), `"channel":K` (from 1) follows `time_s`;
    /// with `listTones` (`--tones` above 1) also `"tones":[{"freq_hz":…,"level_dbfs":…,"snr_db":…},…]`,
    /// strongest first (the top-level fields are the first tone's; `[]` with no tone).
    static func json(_ report: ToneReport, channel: Int? = nil, listTones: Bool = false) -> String {
        let r = report.reading
        var line = "{\"time_s\":\(number(report.timeSeconds))" + (channel.map { ",\"channel\":\($0)" } ?? "")
            + ",\"freq_hz\":\(number(r.frequencyHz))"
            + ",\"level_dbfs\":\(number(r.levelDBFS)),\"snr_db\":\(number(r.snrDB))"
            + ",\"rms_dbfs\":\(number(r.rmsDBFS)),\"invalid\":\(r.invalidInput)"
        if listTones {
            let tones = r.tones.map { tone in
                "{\"freq_hz\":\(number(tone.frequencyHz)),\"level_dbfs\":\(number(tone.levelDBFS))"
                    + ",\"snr_db\":\(number(tone.snrDB))}"
            }
            line += ",\"tones\":[" + tones.joined(separator: ",") + "]"
        }
        return line + pitchFields(report) + "}"
    }

    /// One line per report; with `listTones` and more than one tone, the
    /// further tones follow on lines of their own, indented under the first.
    static func human(_ report: ToneReport, channel: Int? = nil, listTones: Bool) -> String {
        let line = human(report, channel: channel)
        guard listTones, report.reading.tones.count > 1 else { return line }
        let further = report.reading.tones.dropFirst().map { tone in
            String(repeating: " ", count: 15)
                + String(format: "%13.4f Hz   %7.2f dBFS   SNR %6.1f dB", tone.frequencyHz, tone.levelDBFS, tone.snrDB)
        }
        return ([line] + further).joined(separator: "\n")
    }

    static func human(_ report: ToneReport, channel: Int? = nil) -> String {
        if let pitch = report.pitch { return humanPitch(report, pitch, channel: channel) }
        let r = report.reading
        let time = timeColumn(report, channel: channel)
        if r.invalidInput { return "\(time)   invalid input (NaN or Inf)" }
        guard let frequency = r.frequencyHz, let level = r.levelDBFS, let snr = r.snrDB else {
            return "\(time)   no tone          \(windowLevel(r))"
        }
        return "\(time)   " + String(format: "%13.4f Hz   %7.2f dBFS   SNR %6.1f dB", frequency, level, snr)
    }

    /// `     1.234 s`, with `  ch K` on a node with several inputs: the first column of every human line.
    static func timeColumn(_ report: ToneReport, channel: Int?) -> String {
        String(format: "%10.3f s", report.timeSeconds) + (channel.map { "  ch \($0)" } ?? "")
    }

    /// `(window -42.0 dBFS)` or `(silence)`: what a line with nothing detected shows.
    static func windowLevel(_ reading: ToneReading) -> String {
        reading.rmsDBFS.map { String(format: "(window %.1f dBFS)", $0) } ?? "(silence)"
    }

    /// JSON number, or `null` for nil and anything non-finite.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }
}

/// Line output, unbuffered, so pipes see each report at once.
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func err(_ line: String) {
        FileHandle.standardError.write(Data(("tonenode: " + line + "\n").utf8))
    }
}
