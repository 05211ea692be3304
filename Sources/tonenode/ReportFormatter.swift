import Foundation
import ToneDSP

/// Turns reports into lines: one JSON object, or a line for people.
enum ReportFormatter {
    /// `{"time_s":…,"freq_hz":…|null,"level_dbfs":…|null,"snr_db":…|null,"rms_dbfs":…|null,"invalid":false}`
    static func json(_ report: ToneReport) -> String {
        let r = report.reading
        return "{\"time_s\":\(number(report.timeSeconds)),\"freq_hz\":\(number(r.frequencyHz))"
            + ",\"level_dbfs\":\(number(r.levelDBFS)),\"snr_db\":\(number(r.snrDB))"
            + ",\"rms_dbfs\":\(number(r.rmsDBFS)),\"invalid\":\(r.invalidInput)"
            + pitchFields(report) + "}"
    }

    static func human(_ report: ToneReport) -> String {
        if let pitch = report.pitch { return humanPitch(report, pitch) }
        let r = report.reading
        let time = String(format: "%10.3f s", report.timeSeconds)
        if r.invalidInput { return "\(time)   invalid input (NaN or Inf)" }
        guard let frequency = r.frequencyHz, let level = r.levelDBFS, let snr = r.snrDB else {
            let rms = r.rmsDBFS.map { String(format: "(window %.1f dBFS)", $0) } ?? "(silence)"
            return "\(time)   no tone          \(rms)"
        }
        return "\(time)   " + String(format: "%13.4f Hz   %7.2f dBFS   SNR %6.1f dB", frequency, level, snr)
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
