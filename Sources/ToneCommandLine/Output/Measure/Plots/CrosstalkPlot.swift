import Foundation
import ToneDSP
import TonePlot

/// `measure --what crosstalk --plot`: a heat map, one row per path (driven → read), frequency across.
public enum CrosstalkPlot {
    public static func svg(_ m: CrosstalkMatrix) -> String {
        let width = 960.0
        var writer = SVGWriter(width: width, height: 560)
        let frequencies = m.paths.first?.points.map(\.frequencyHz) ?? [1000]
        let values = frequencies.indices.map { column in m.paths.map { $0.points[column].levelDB } }
        let top = ((values.joined().max() ?? -60) / 10).rounded(.up) * 10
        var box = SVGWriter.plotBox(width: width, top: 0, height: 560, rightMargin: 120)
        // Each row named at its centre ("out 1 → in 2"; every k-th row when rows are under 16 units high),
        // the plot moved right to make room for the names.
        let names = m.paths.map { "out \($0.driven + 1) → in \($0.measured + 1)" }
        let stride = max(1, Int((16 * Double(names.count) / box.height).rounded(.up)))
        var yAxis = Axis(title: "path (driven → read)", lower: 0, upper: Double(max(1, names.count)))
        yAxis.fixedTicks = names.enumerated().map { .init(value: Double($0.offset) + 0.5, label: $0.offset % stride == 0 ? $0.element : "") }
        let left = 8 + 14 + 12 + 8 + (names.map { TextBox.width(of: $0, size: 12) }.max() ?? 0)
        box.width -= max(0, left - box.x)
        box.x = max(box.x, left)
        let heatmap = Heatmap(title: "Crosstalk: each path's level against the driven output, by frequency",
                              xAxis: .logarithmic(title: "frequency (Hz)", covering: frequencies.first ?? 20, frequencies.last ?? 20000),
                              yAxis: yAxis, colorTitle: "dB", colorLower: top - 80, colorUpper: top, values: values)
        heatmap.draw(into: &writer, box: box)
        return writer.document()
    }
}
