import Foundation
import ToneDSP

/// Turns reports into lines: one JSON object, or a line for people.
public enum ReportFormatter {
    /// `{"time_s":…,"freq_hz":…|null,"level_dbfs":…|null,"snr_db":…|null,"rms_dbfs":…|null,"invalid":false}`;
    /// with `channel` (a node with several inputs), `"channel":K` (from 1) follows `time_s`;
    /// with `listTones` (`--tones` above 1) also `"tones":[{"freq_hz":…,"level_dbfs":…,"snr_db":…},…]`,
    /// strongest first (the top-level fields are the first tone's; `[]` with no tone);
    /// `"span_s":…` after `invalid` when the frequency is fitted over a steady span longer than one window (`--steady`).
    public static func json(_ report: ToneReport, channel: Int? = nil, listTones: Bool = false) -> String {
        let r = report.reading
        var line = JSONLine()
        line.add("time_s", report.timeSeconds)
        if let channel { line.add("channel", channel) }
        line.add("freq_hz", r.frequencyHz)
        line.add("level_dbfs", r.levelDBFS)
        line.add("snr_db", r.snrDB)
        line.add("rms_dbfs", r.rmsDBFS)
        line.add("invalid", r.invalidInput)
        if let span = r.spanSeconds { line.add("span_s", span) }
        // Only when false: a settled report (the rule) carries no extra field.
        if !report.settled { line.add("settled", false) }
        // Only when false: nothing feeds the input (a report with no tone).
        if report.unconnected { line.add("connected", false) }
        if listTones {
            line.add("tones", r.tones.map { tone in
                var object = JSONLine()
                object.add("freq_hz", tone.frequencyHz)
                object.add("level_dbfs", tone.levelDBFS)
                object.add("snr_db", tone.snrDB)
                return object
            })
        }
        addPitchFields(report, to: &line)
        return line.description
    }

    /// One line per report; with `listTones` and more than one tone, the
    /// further tones follow on lines of their own, indented under the first.
    public static func human(_ report: ToneReport, channel: Int? = nil, listTones: Bool) -> String {
        let line = human(report, channel: channel)
        guard listTones, report.reading.tones.count > 1 else { return line }
        let further = report.reading.tones.dropFirst().map { tone in
            String(repeating: " ", count: 15)
                + String(format: "%13.4f Hz   %7.2f dBFS   SNR %6.1f dB", tone.frequencyHz, tone.levelDBFS, tone.snrDB)
        }
        return ([line] + further).joined(separator: "\n")
    }

    public static func human(_ report: ToneReport, channel: Int? = nil) -> String {
        let line = humanReading(report, channel: channel)
        // A window from before the connections took effect: shown, but marked.
        return report.settled ? line : line + "   (settling)"
    }

    public static func humanReading(_ report: ToneReport, channel: Int?) -> String {
        // Silence because nothing feeds the input: say that, not "no tone".
        if report.unconnected { return timeColumn(report, channel: channel) + "   in: not connected" }
        if let pitch = report.pitch { return humanPitch(report, pitch, channel: channel) }
        let r = report.reading
        let time = timeColumn(report, channel: channel)
        if r.invalidInput { return "\(time)   invalid input (NaN or Inf)" }
        guard let frequency = r.frequencyHz, let level = r.levelDBFS, let snr = r.snrDB else {
            return "\(time)   no tone          \(windowLevel(r))"
        }
        return "\(time)   " + String(format: "%13.4f Hz   %7.2f dBFS   SNR %6.1f dB", frequency, level, snr) + spanColumn(r)
    }

    /// `   over 2.50 s` when the frequency is fitted over a steady span longer than one window; else nothing.
    public static func spanColumn(_ reading: ToneReading) -> String {
        reading.spanSeconds.map { String(format: "   over %.2f s", $0) } ?? ""
    }

    /// `     1.234 s`, with `  ch K` on a node with several inputs: the first column of every human line.
    public static func timeColumn(_ report: ToneReport, channel: Int?) -> String {
        String(format: "%10.3f s", report.timeSeconds) + (channel.map { "  ch \($0)" } ?? "")
    }

    /// `(window -42.0 dBFS)` or `(silence)`: what a line with nothing detected shows.
    public static func windowLevel(_ reading: ToneReading) -> String {
        reading.rmsDBFS.map { String(format: "(window %.1f dBFS)", $0) } ?? "(silence)"
    }
}
