import Foundation


/// A line chart: one or more curves on linear or logarithmic axes, with
/// gridlines, tick labels, axis titles and a title, drawn as SVG.
public struct LinePlot: Chart, Sendable {
    public struct Series: Sendable {
        public var name: String
        public var points: [(x: Double, y: Double)]
        public var color: String
        public init(name: String, points: [(x: Double, y: Double)], color: String = "#1f6fb4") {
            self.name = name
            self.points = points
            self.color = color
        }
    }

    public var title: String
    public var xAxis: Axis
    public var yAxis: Axis
    public var series: [Series]
    /// A dashed vertical marker (e.g. the test tone), with its label.
    public var markers: [(x: Double, label: String)] = []

    public init(title: String, xAxis: Axis, yAxis: Axis, series: [Series]) {
        self.title = title
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.series = series
    }

    /// Draws into `box` (the area of the plot itself; labels go around it).
    public func draw(into writer: inout SVGWriter, box: SVGWriter.Box) {
        writer.frame(box: box, title: title, xAxis: xAxis, yAxis: yAxis)
        writer.openClip(box: box)
        for marker in markers {
            let x = box.x + xAxis.position(marker.x) * box.width
            writer.line(x1: x, y1: box.y, x2: x, y2: box.y + box.height, color: "#c0392b", width: 1, dashed: true)
            writer.text(marker.label, x: x + 4, y: box.y + 14, size: 12, color: "#c0392b", anchor: "start")
        }
        for curve in series {
            let coordinates = curve.points.compactMap { point -> (Double, Double)? in
                guard point.x.isFinite, point.y.isFinite, xAxis.contains(point.x) else { return nil }
                let y = min(max(point.y, yAxis.lower), yAxis.upper)
                return (box.x + xAxis.position(point.x) * box.width,
                        box.y + (1 - yAxis.position(y)) * box.height)
            }
            writer.polyline(coordinates, color: curve.color, width: 2)
        }
        writer.closeClip()
        if series.count > 1 {
            for (index, curve) in series.enumerated() {
                let y = box.y + 18 + Double(index) * 18
                writer.line(x1: box.x + box.width - 150, y1: y - 4, x2: box.x + box.width - 126, y2: y - 4,
                            color: curve.color, width: 2)
                writer.text(curve.name, x: box.x + box.width - 120, y: y, size: 12, anchor: "start")
            }
        }
    }
}
