import Foundation
import ToneCore
import ToneDSP

/// The summary of one measurement: a few lines for people, or one JSON object.
public enum MeasureFormatter {
    /// Frequencies shown in the human summary's response row (those inside the sweep).
    public static let landmarksHz: [Double] = [20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000]

    public static func human(_ m: ChainMeasurement, periodFrames: Int, xruns: Int) -> String {
        var lines: [String] = []
        lines.append(String(format: "latency     %12.3f frames  %9.4f ms   (round trip out → in, %d frames/period)",
                            m.latencyFrames, m.latencyMs, periodFrames))
        lines.append(String(format: "gain        %+12.3f dB      at %@ Hz", m.gainDB, format(m.toneFrequencyHz)))
        lines.append(String(format: "frequency   %12.4f Hz      shift %+.4f Hz (%+.1f cents)",
                            m.measuredFrequencyHz, m.frequencyShiftHz,
                            1200 * log2(m.measuredFrequencyHz / m.toneFrequencyHz)))
        lines.append(String(format: "THD+N       %12.1f dB      %.5f %%", m.thdPlusNoiseDB, m.thdPlusNoisePercent))
        let gains = m.response.map(\.gainDB)
        if let low = gains.min(), let high = gains.max() {
            lines.append(String(format: "response    %@ – %@ Hz within %+.2f … %+.2f dB%@",
                                format(m.sweepStartHz), format(m.sweepEndHz.rounded()), low, high,
                                cornerText(m)))
            let marks = landmarksHz.filter { $0 >= m.sweepStartHz * 0.999 && $0 <= m.sweepEndHz * 1.001 }
            let row = marks.compactMap { hz in m.responseDB(at: hz).map { String(format: "%@ %+.2f", label(hz), $0) } }
            lines.append("            " + row.joined(separator: " | "))
        }
        if m.toneGlitches > 0 {
            lines.append("glitches    \(m.toneGlitches) block(s) of 256 frames with a burst in the returned tone (dropout, lost period or click)")
        }
        return lines.joined(separator: "\n")
    }

    /// Where the response falls 3 dB below its peak, either side of the peak.
    public static func cornerText(_ m: ChainMeasurement) -> String {
        guard let peak = m.response.max(by: { $0.gainDB < $1.gainDB }) else { return "" }
        let below = m.response.last { $0.frequencyHz < peak.frequencyHz && $0.gainDB < peak.gainDB - 3 }
        let above = m.response.first { $0.frequencyHz > peak.frequencyHz && $0.gainDB < peak.gainDB - 3 }
        var parts: [String] = []
        if let below { parts.append("−3 dB below \(label(below.frequencyHz)) Hz") }
        if let above { parts.append("−3 dB from \(label(above.frequencyHz)) Hz") }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")
    }

    public static func label(_ hz: Double) -> String {
        hz >= 1000 ? format((hz / 100).rounded() / 10) + "k" : format(hz.rounded())
    }

    public static func rounded(_ value: Double, _ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        let result = (value * scale).rounded() / scale
        return result == 0 ? 0 : result   // no -0.0
    }

    /// One JSON object; numbers that are not finite are `null`.
    public static func json(_ m: ChainMeasurement, clientName: String, periodFrames: Int, xruns: Int) -> String {
        jsonObject(m, clientName: clientName, periodFrames: periodFrames, xruns: xruns).description
    }

    /// The object of `json`, for callers that add fields (`--what harmonics`) after today's.
    public static func jsonObject(_ m: ChainMeasurement, clientName: String, periodFrames: Int, xruns: Int) -> JSONLine {
        var line = JSONLine()
        line.add("client", clientName)
        line.add("sample_rate_hz", m.sampleRateHz)
        line.add("period_frames", periodFrames)
        line.add("latency_frames", m.latencyFrames)
        line.add("latency_ms", m.latencyMs)
        line.add("gain_db", m.gainDB)
        line.add("tone_hz", m.toneFrequencyHz)
        line.add("measured_hz", m.measuredFrequencyHz)
        line.add("frequency_shift_hz", m.frequencyShiftHz)
        line.add("thd_n_db", m.thdPlusNoiseDB)
        line.add("thd_n_percent", m.thdPlusNoisePercent)
        line.add("sweep_start_hz", m.sweepStartHz)
        line.add("sweep_end_hz", m.sweepEndHz)
        line.add("tone_glitches", m.toneGlitches)
        line.add("xruns", xruns)
        line.add("response", m.response.map { point in
            var object = JSONLine()
            object.add("hz", rounded(point.frequencyHz, 2))
            object.add("db", rounded(point.gainDB, 4))
            return object
        })
        return line
    }

    /// The client line of a run that made no audio-chain measurement (`--what midi` alone).
    public static func jsonHeader(clientName: String, sampleRateHz: Int, periodFrames: Int, xruns: Int) -> JSONLine {
        var line = JSONLine()
        line.add("client", clientName)
        line.add("sample_rate_hz", Double(sampleRateHz))
        line.add("period_frames", periodFrames)
        line.add("xruns", xruns)
        return line
    }
}
