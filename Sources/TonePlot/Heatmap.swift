import Foundation

/// A spectrogram-style picture: values on a grid (time × frequency), coloured
/// by a perceptual colour map, with axes and a colour bar, as SVG.
public struct Heatmap: Chart, Sendable {
    public var title: String
    public var xAxis: Axis
    public var yAxis: Axis
    /// Title of the colour bar (e.g. "level (dBFS)") and its range.
    public var colorTitle: String
    public var colorLower: Double
    public var colorUpper: Double
    /// `values[column][row]`, row 0 at `yAxis.lower`; rows are evenly spaced
    /// in `yAxis`'s scale (log rows for a log axis).
    public var values: [[Double]]

    public init(title: String, xAxis: Axis, yAxis: Axis, colorTitle: String, colorLower: Double,
                colorUpper: Double, values: [[Double]]) {
        self.title = title
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.colorTitle = colorTitle
        self.colorLower = colorLower
        self.colorUpper = colorUpper
        self.values = values
    }

    /// Draws into `box`; the colour bar sits to its right (keep 90 px free there).
    public func draw(into writer: inout SVGWriter, box: SVGWriter.Box) {
        let columns = values.count
        let rows = values.first?.count ?? 0
        if columns > 0, rows > 0 {
            var rgb = [UInt8](repeating: 0, count: columns * rows * 3)
            for column in 0..<columns {
                for row in 0..<rows {
                    let color = ColorMap.color(normalized(values[column][min(row, values[column].count - 1)]))
                    let offset = ((rows - 1 - row) * columns + column) * 3
                    rgb[offset] = color.0
                    rgb[offset + 1] = color.1
                    rgb[offset + 2] = color.2
                }
            }
            writer.image(png: PNGEncoder.encode(width: columns, height: rows, rgb: rgb), box: box)
        }
        writer.frame(box: box, title: title, xAxis: xAxis, yAxis: yAxis, overImage: true)
        // Colour bar.
        let bar = SVGWriter.Box(x: box.x + box.width + 16, y: box.y, width: 16, height: box.height)
        let steps = 64
        for step in 0..<steps {
            let color = ColorMap.color(Double(step) / Double(steps - 1))
            let y = bar.y + bar.height * (1 - Double(step + 1) / Double(steps))
            writer.rect(.init(x: bar.x, y: y, width: bar.width, height: bar.height / Double(steps) + 0.5),
                        fill: String(format: "#%02x%02x%02x", color.0, color.1, color.2))
        }
        let scale = Axis(title: colorTitle, lower: colorLower, upper: colorUpper)
        for tick in scale.ticks {
            let y = bar.y + (1 - scale.position(tick.value)) * bar.height
            writer.text(tick.label, x: bar.x + bar.width + 4, y: y + 4, size: 11, anchor: "start")
        }
        writer.text(colorTitle, x: bar.x + bar.width / 2, y: bar.y - 8, size: 12, anchor: "middle", className: "color-label")
    }

    private func normalized(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return min(1, max(0, (value - colorLower) / (colorUpper - colorLower)))
    }
}

/// A viridis-like colour map (dark blue → green → yellow), by linear
/// interpolation between a few of viridis's own colours.
public enum ColorMap {
    static let stops: [(Double, Double, Double)] = [
        (68, 1, 84), (72, 40, 120), (62, 74, 137), (49, 104, 142), (38, 130, 142),
        (31, 158, 137), (53, 183, 121), (110, 206, 88), (181, 222, 43), (253, 231, 37),
    ]

    /// - Parameter t: 0…1.
    public static func color(_ t: Double) -> (UInt8, UInt8, UInt8) {
        let position = min(1, max(0, t)) * Double(stops.count - 1)
        let index = min(stops.count - 2, Int(position))
        let f = position - Double(index)
        let a = stops[index], b = stops[index + 1]
        return (UInt8((a.0 + (b.0 - a.0) * f).rounded()), UInt8((a.1 + (b.1 - a.1) * f).rounded()),
                UInt8((a.2 + (b.2 - a.2) * f).rounded()))
    }
}
