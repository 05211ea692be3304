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
    /// The unit of the y values, for the note that names curves lying on the floor ("dB", "dBFS").
    public var floorUnit = "dB"

    public init(title: String, xAxis: Axis, yAxis: Axis, series: [Series]) {
        self.title = title
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.series = series
    }

    /// Draws into `box` (the area of the plot itself; labels go around it). The legend goes to the
    /// corner of the box its curves cross least; marker labels stack where they clear every other text;
    /// a curve wholly at or below the y-axis' floor is not drawn but named in a note above the floor.
    public func draw(into writer: inout SVGWriter, box: SVGWriter.Box) {
        writer.frame(box: box, title: title, xAxis: xAxis, yAxis: yAxis)
        let onFloor = series.map { curve in
            let values = curve.points.filter { $0.x.isFinite && xAxis.contains($0.x) }.map(\.y).filter(\.isFinite)
            return !values.isEmpty && values.allSatisfy { $0 <= yAxis.lower }
        }
        let curves = series.enumerated().map { index, curve in onFloor[index] ? [] : segments(of: curve, box: box) }
        let curvePoints = curves.flatMap { $0.flatMap { $0 } }
        let legend = series.count > 1 ? placeLegend(box: box, curvePoints: curvePoints, writer: &writer) : nil
        writer.openClip(box: box)
        for marker in markers {
            let x = box.x + xAxis.position(marker.x) * box.width
            writer.line(x1: x, y1: box.y, x2: x, y2: box.y + box.height, color: "#c0392b", width: 1, dashed: true)
        }
        for (index, curve) in series.enumerated() {
            for segment in curves[index] { writer.polyline(segment, color: curve.color, width: 2) }
        }
        writer.closeClip()
        for marker in markers {
            writer.markerLabel(marker.label, x: box.x + xAxis.position(marker.x) * box.width, box: box, curvePoints: curvePoints)
        }
        drawFloorNote(onFloor: onFloor, box: box, curvePoints: curvePoints, writer: &writer)
        if let legend { drawLegend(at: legend, writer: &writer) }
    }

    /// Screen coordinates of a curve's points inside the x-range, values clamped into the y-range; a NaN
    /// value ends a segment (a pitch track's unvoiced stretch), other non-finite points are skipped.
    func segments(of curve: Series, box: SVGWriter.Box) -> [[(Double, Double)]] {
        var segments: [[(Double, Double)]] = [[]]
        for point in curve.points {
            if point.y.isNaN, !(segments.last?.isEmpty ?? true) { segments.append([]) }
            guard point.x.isFinite, point.y.isFinite, xAxis.contains(point.x) else { continue }
            let y = min(max(point.y, yAxis.lower), yAxis.upper)
            segments[segments.count - 1].append((box.x + xAxis.position(point.x) * box.width,
                                                 box.y + (1 - yAxis.position(y)) * box.height))
        }
        return segments.filter { !$0.isEmpty }
    }
}
