import Foundation

// MARK: - Legend and floor note

extension LinePlot {
    static let legendRowHeight = 18.0

    /// The corner of `box` where the legend covers the fewest curve points (top right first on a tie);
    /// the area is reserved so that marker labels keep clear of it.
    func placeLegend(box: SVGWriter.Box, curvePoints: [(Double, Double)], writer: inout SVGWriter) -> SVGWriter.Box {
        let width = 40 + (series.map { TextBox.width(of: $0.name, size: 12) }.max() ?? 0)
        let height = Self.legendRowHeight * Double(series.count) + 8
        let left = box.x + 8, right = box.x + box.width - 8 - width
        let top = box.y + 8, bottom = box.y + box.height - 8 - height
        let corners = [(right, top), (left, top), (right, bottom), (left, bottom)].map {
            SVGWriter.Box(x: $0.0, y: $0.1, width: width, height: height)
        }
        func covered(_ area: SVGWriter.Box) -> Int {
            curvePoints.filter { $0.0 >= area.x && $0.0 <= area.x + area.width && $0.1 >= area.y && $0.1 <= area.y + area.height }.count
        }
        let counts = corners.map(covered)
        let best = corners.indices.min { counts[$0] < counts[$1] } ?? 0
        writer.reserve(corners[best])
        return corners[best]
    }

    func drawLegend(at area: SVGWriter.Box, writer: inout SVGWriter) {
        writer.rect(area, fill: "#ffffff", opacity: 0.85, stroke: "#c8c8c8")
        for (index, curve) in series.enumerated() {
            let y = area.y + 4 + Self.legendRowHeight * Double(index + 1) - 5
            writer.line(x1: area.x + 6, y1: y - 4, x2: area.x + 30, y2: y - 4, color: curve.color, width: 2)
            writer.text(curve.name, x: area.x + 36, y: y, size: 12, anchor: "start")
        }
    }

    /// "H2, H3: all below -180 dB" just above the floor, for the curves that lie wholly on it
    /// (not drawn: a line along the frame reads as no curve at all).
    func drawFloorNote(onFloor: [Bool], box: SVGWriter.Box, curvePoints: [(Double, Double)], writer: inout SVGWriter) {
        let names = series.indices.filter { onFloor[$0] }.map { series[$0].name }
        guard !names.isEmpty else { return }
        let floorValues = series.indices.filter { onFloor[$0] }.flatMap { series[$0].points.map(\.y) }.filter(\.isFinite)
        let floor = yAxis.lower == yAxis.lower.rounded() ? String(Int(yAxis.lower)) : String(format: "%.1f", yAxis.lower)
        let reach = (floorValues.max() ?? yAxis.lower) < yAxis.lower ? "all below \(floor)" : "all at \(floor) or below"
        let note = "\(names.joined(separator: ", ")): \(reach) \(floorUnit)"
        let rows = max(1, Int((box.height - 8) / 18))
        let candidates = (0..<rows).flatMap { row -> [SVGWriter.Place] in
            let y = box.y + box.height - 8 - 18 * Double(row)
            return [.init(x: box.x + 8, y: y, anchor: "start"), .init(x: box.x + box.width / 2, y: y, anchor: "middle"),
                    .init(x: box.x + box.width - 8, y: y, anchor: "end")]
        }
        if let place = writer.firstFreePlace(for: note, size: 14, candidates: candidates, inside: box, curvePoints: curvePoints) {
            writer.text(note, x: place.x, y: place.y, size: 14, color: "#505050", anchor: place.anchor, className: "floor-note")
        }
    }
}
