import Foundation
import ToneDSP

extension ReportFormatter {
    /// `"note":"E2"|null,"cents":…|null` in pitch mode; nothing in tone mode.
    public static func addPitchFields(_ report: ToneReport, to line: inout JSONLine) {
        guard let pitch = report.pitch else { return }
        line.add("note", pitch.noteName)
        line.add("cents", pitch.cents)
    }

    /// `   1.234 s    82.4069 Hz   E2    +0.01 cents   -12.3 dBFS   SNR 30.0 dB`, or `no pitch`.
    public static func humanPitch(_ report: ToneReport, _ pitch: PitchReading, channel: Int? = nil) -> String {
        let r = report.reading
        let time = timeColumn(report, channel: channel)
        if r.invalidInput { return "\(time)   invalid input (NaN or Inf)" }
        guard let frequency = r.frequencyHz, let note = pitch.noteName, let cents = pitch.cents else {
            return "\(time)   no pitch         \(windowLevel(r))"
        }
        let paddedNote = note.padding(toLength: 4, withPad: " ", startingAt: 0)
        var line = "\(time)   " + String(format: "%11.4f Hz   %@ %+7.2f cents", frequency, paddedNote, cents)
        if let level = r.levelDBFS { line += String(format: "   %7.2f dBFS", level) }
        if let snr = r.snrDB { line += String(format: "   SNR %6.1f dB", snr) }
        return line + spanColumn(r)
    }
}
