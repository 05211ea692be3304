import Foundation
import ToneDSP

/// `measure --what harmonics`: the harmonics table, THD, phase and group delay.
extension MeasureFormatter {
    /// Fundamentals shown in the human table (those measured).
    public static let harmonicLandmarksHz: [Double] = [50, 100, 200, 500, 1000, 2000, 5000]

    public static func human(_ h: HarmonicAnalysis) -> String {
        var lines: [String] = []
        lines.append(String(format: "harmonics   at %.1f dBFS: level dB re the fundamental / phase ° (sin in → sin(kωt + φ) out)",
                            h.levelDBFS))
        lines.append("  f0 Hz  " + HarmonicAnalyzer.orders.map { pad("H\($0)", 17) }.joined() + pad("THD dB", 12))
        for hz in harmonicLandmarksHz {
            guard let thd = h.thd.min(by: { abs(log2($0.frequencyHz / hz)) < abs(log2($1.frequencyHz / hz)) }),
                  abs(log2(thd.frequencyHz / hz)) < 1.0 / 24 else { continue }
            var row = "  " + label(hz) + String(repeating: " ", count: max(0, 7 - label(hz).count))
            for order in HarmonicAnalyzer.orders {
                if let point = h.harmonic(order, at: hz), abs(log2(point.frequencyHz / hz)) < 1.0 / 24 {
                    // Below −200 dB there is no harmonic to speak of (a digital wire reads −300): no phase.
                    row += point.levelDB < -200 ? pad("< -200      ", 17)
                        : String(format: "   %7.1f %+6.0f", point.levelDB, point.phaseDegrees)
                } else {
                    row += pad("–", 17)
                }
            }
            lines.append(row + (thd.thdDB < -200 ? pad("< -200", 12) : String(format: "%12.1f", thd.thdDB)))
        }
        let marks = landmarksHz.compactMap { hz in
            h.linear.first { abs(log2($0.frequencyHz / hz)) < 1.0 / 24 }.map { (hz, $0) }
        }
        lines.append("phase       " + marks.map { String(format: "%@ %+.1f°", label($0.0), $0.1.phaseDegrees) }
            .joined(separator: " | ") + "   (latency removed)")
        lines.append("group delay " + marks.map { String(format: "%@ %.3f", label($0.0), $0.1.groupDelayMs) }
            .joined(separator: " | ") + " ms")
        return lines.joined(separator: "\n")
    }

    /// `text` right-aligned in `width` columns.
    public static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    public static func json(_ h: HarmonicAnalysis) -> JSONLine {
        var object = JSONLine()
        object.add("level_dbfs", h.levelDBFS)
        object.add("orders", h.orders.map { order in
            var line = JSONLine()
            line.add("order", order.order)
            line.add("points", order.points.map { point in
                var p = JSONLine()
                p.add("hz", rounded(point.frequencyHz, 2))
                p.add("db", rounded(point.levelDB, 3))
                p.add("degrees", rounded(point.phaseDegrees, 2))
                return p
            })
            return line
        })
        object.add("thd", h.thd.map { point in
            var p = JSONLine()
            p.add("hz", rounded(point.frequencyHz, 2))
            p.add("db", rounded(point.thdDB, 3))
            p.add("percent", point.thdPercent)
            p.add("highest_order", point.highestOrder)
            return p
        })
        object.add("linear", h.linear.map { point in
            var p = JSONLine()
            p.add("hz", rounded(point.frequencyHz, 2))
            p.add("db", rounded(point.gainDB, 4))
            p.add("degrees", rounded(point.phaseDegrees, 3))
            p.add("group_delay_ms", rounded(point.groupDelayMs, 5))
            return p
        })
        var impulse = JSONLine()
        impulse.add("start_frame", h.impulseStartFrame)
        impulse.add("samples", h.impulseResponse, .decimals(9))
        object.add("impulse_response", impulse)
        return object
    }
}
