import Foundation
import ToneDSP
import TonePlot

/// `measure --what crosstalk --plot`: a heat map, one row per path (driven → read), frequency across.
enum CrosstalkPlot {
    static func svg(_ m: CrosstalkMatrix) -> String {
        let width = 960.0
        var writer = SVGWriter(width: width, height: 560)
        let frequencies = m.paths.first?.points.map(\.frequencyHz) ?? [1000]
        let values = frequencies.indices.map { column in m.paths.map { $0.points[column].levelDB } }
        let top = ((values.joined().max() ?? -60) / 10).rounded(.up) * 10
        let heatmap = Heatmap(
            title: "Crosstalk: row k from the bottom = path \(m.paths.enumerated().map { "\($0.offset): out \($0.element.driven + 1) → in \($0.element.measured + 1)" }.joined(separator: ", "))",
            xAxis: .logarithmic(title: "frequency (Hz)", covering: frequencies.first ?? 20, frequencies.last ?? 20000),
            yAxis: Axis(title: "path", lower: 0, upper: Double(max(1, m.paths.count))),
            colorTitle: "dB", colorLower: top - 80, colorUpper: top, values: values)
        heatmap.draw(into: &writer, box: SVGWriter.plotBox(width: width, top: 0, height: 560, rightMargin: 120))
        return writer.document()
    }
}
