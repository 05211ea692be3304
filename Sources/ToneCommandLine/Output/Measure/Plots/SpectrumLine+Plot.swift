import Foundation
import ToneDSP

extension Array where Element == SpectrumLine {
    /// Points for a log-frequency line plot: the loudest line in each of
    /// `columns` equal slices of log frequency (peaks survive; the file stays small).
    public func plotPoints(columns: Int = 1200) -> [(x: Double, y: Double)] {
        guard let low = first?.frequencyHz, let high = last?.frequencyHz, low > 0, high > low, count > columns else {
            return map { ($0.frequencyHz, $0.levelDB) }
        }
        let scale = Double(columns) / log(high / low)
        var points: [(x: Double, y: Double)] = []
        var column = -1
        for line in self {
            let index = Swift.min(columns - 1, Int(log(line.frequencyHz / low) * scale))
            if index != column {
                points.append((line.frequencyHz, line.levelDB))
                column = index
            } else if line.levelDB > points[points.count - 1].y {
                points[points.count - 1] = (line.frequencyHz, line.levelDB)
            }
        }
        return points
    }
}
