import Foundation
import ToneCore
import ToneDSP

/// `measure --channels N --what crosstalk`: the matrix (channels numbered from 1).
extension MeasureFormatter {
    public static func human(_ m: CrosstalkMatrix) -> String {
        var lines = ["crosstalk   worst over the sweep / at 1 kHz, dB (row: input read; column: output driven alone)"]
        lines.append("            " + (0..<m.channels).map { pad("out \($0 + 1)", 18) }.joined())
        for measured in 0..<m.channels {
            var row = "  in \(measured + 1)      "
            for driven in 0..<m.channels {
                guard let path = m.path(driven: driven, measured: measured) else { row += pad("—", 18); continue }
                let atKHz = path.points.min { abs(log2($0.frequencyHz / 1000)) < abs(log2($1.frequencyHz / 1000)) }?.levelDB ?? .nan
                row += pad(String(format: "%.1f / %.1f", path.worstDB, atKHz), 18)
            }
            lines.append(row)
        }
        return lines.joined(separator: "\n")
    }

    public static func json(_ m: CrosstalkMatrix) -> JSONLine {
        var object = JSONLine()
        object.add("channels", m.channels)
        object.add("paths", m.paths.map { path in
            var p = JSONLine()
            p.add("driven", path.driven + 1)
            p.add("measured", path.measured + 1)
            p.add("worst_db", rounded(path.worstDB, 3))
            p.add("points", path.points.map { point in
                var q = JSONLine()
                q.add("hz", rounded(point.frequencyHz, 2))
                q.add("db", rounded(point.levelDB, 3))
                return q
            })
            return p
        })
        return object
    }
}
