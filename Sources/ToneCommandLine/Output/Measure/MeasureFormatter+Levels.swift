import Foundation
import ToneCore
import ToneDSP

/// `measure --what levels`: THD+N and gain versus level.
extension MeasureFormatter {
    public static func human(_ sweep: LevelSweep) -> String {
        var lines = ["levels      at \(format(sweep.toneFrequencyHz)) Hz: level dBFS → gain dB, THD+N dB (%)"]
        // Every other step on one line each would be 21 lines: show them in rows of four.
        let cells = sweep.points.map { point in
            point.gainDB.isFinite
                ? String(format: "%+6.1f → %+7.3f %7.1f (%.4f%%)", point.levelDBFS, point.gainDB, point.thdPlusNoiseDB,
                         point.thdPlusNoisePercent)
                : String(format: "%+6.1f → nothing came back", point.levelDBFS)
        }
        for start in stride(from: 0, to: cells.count, by: 3) {
            lines.append("            " + cells[start..<min(cells.count, start + 3)].joined(separator: " | "))
        }
        let onePercent = sweep.onePercentLevelDBFS.map { String(format: "%.2f dBFS", $0) } ?? "not reached"
        let compression = sweep.oneDBCompressionLevelDBFS.map { String(format: "%.2f dBFS", $0) } ?? "not reached"
        lines.append("            THD+N 1 % at \(onePercent); 1 dB compression at \(compression)")
        return lines.joined(separator: "\n")
    }

    public static func json(_ sweep: LevelSweep) -> JSONLine {
        var object = JSONLine()
        object.add("tone_hz", sweep.toneFrequencyHz)
        object.add("one_percent_level_dbfs", sweep.onePercentLevelDBFS)
        object.add("one_db_compression_level_dbfs", sweep.oneDBCompressionLevelDBFS)
        object.add("points", sweep.points.map { point in
            var p = JSONLine()
            p.add("level_dbfs", point.levelDBFS)
            p.add("gain_db", point.gainDB.isFinite ? rounded(point.gainDB, 5) : nil)
            p.add("thd_n_db", point.thdPlusNoiseDB.isFinite ? rounded(point.thdPlusNoiseDB, 3) : nil)
            p.add("thd_n_percent", point.thdPlusNoisePercent)
            p.add("compression_db", point.compressionDB.isFinite ? rounded(point.compressionDB, 5) : nil)
            return p
        })
        return object
    }
}
