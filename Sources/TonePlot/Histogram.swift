import Foundation

/// A histogram: values counted into equal bins, drawn as bars on a linear axis.
public struct Histogram: Chart, Sendable {
    public var title: String
    public var xAxis: Axis
    public var yTitle: String
    /// Count per bin; bin k spans `xAxis.lower + k·binWidth …` one bin width on.
    public let counts: [Int]
    public let binWidth: Double
    /// Dashed vertical markers with labels (a median, a percentile).
    public var markers: [(x: Double, label: String)] = []

    /// Counts `values` into `bins` equal bins between `lower` and `upper`
    /// (values outside go to the end bins).
    public init(title: String, xTitle: String, yTitle: String = "count", values: [Double],
                lower: Double, upper: Double, bins: Int) {
        let binCount = max(1, bins)
        let span = upper > lower ? upper - lower : 1
        self.title = title
        self.yTitle = yTitle
        xAxis = Axis(title: xTitle, lower: lower, upper: lower + span)
        binWidth = span / Double(binCount)
        var counts = [Int](repeating: 0, count: binCount)
        for value in values where value.isFinite {
            counts[min(binCount - 1, max(0, Int(((value - lower) / binWidth).rounded(.down))))] += 1
        }
        self.counts = counts
    }

    public func draw(into writer: inout SVGWriter, box: SVGWriter.Box) {
        let top = Double(max(1, counts.max() ?? 1))
        let yAxis = Axis(title: yTitle, lower: 0, upper: (top * 1.1).rounded(.up))
        writer.frame(box: box, title: title, xAxis: xAxis, yAxis: yAxis)
        writer.openClip(box: box)
        for (index, count) in counts.enumerated() where count > 0 {
            let x0 = box.x + xAxis.position(xAxis.lower + Double(index) * binWidth) * box.width
            let x1 = box.x + xAxis.position(xAxis.lower + Double(index + 1) * binWidth) * box.width
            let height = yAxis.position(Double(count)) * box.height
            writer.rect(.init(x: x0 + 0.5, y: box.y + box.height - height, width: max(1, x1 - x0 - 1), height: height),
                        fill: "#1f6fb4")
        }
        for marker in markers {
            let x = box.x + xAxis.position(marker.x) * box.width
            writer.line(x1: x, y1: box.y, x2: x, y2: box.y + box.height, color: "#c0392b", width: 1, dashed: true)
        }
        writer.closeClip()
        for marker in markers { writer.markerLabel(marker.label, x: box.x + xAxis.position(marker.x) * box.width, box: box) }
    }
}
