import Foundation
import ToneDSP
import TonePlot

/// `measure --what harmonics --plot`: H2…H5 and THD versus the fundamental's
/// frequency (dB re the fundamental) above the linear response's group delay.
public enum HarmonicsPlot {
    public static let colors = ["#1f6fb4", "#e67e22", "#27ae60", "#8e44ad", "#c0392b"]

    public static func svg(_ h: HarmonicAnalysis) -> String {
        let width = 960.0
        var writer = SVGWriter(width: width, height: 1000)
        var series: [LinePlot.Series] = [.init(name: "THD", points: h.thd.map { ($0.frequencyHz, $0.thdDB) }, color: colors[4])]
        for (index, order) in h.orders.enumerated() {
            series.append(.init(name: "H\(order.order)", points: order.points.map { ($0.frequencyHz, $0.levelDB) },
                                color: colors[index % 4]))
        }
        let levels = series.flatMap { $0.points.map(\.y) }.filter(\.isFinite)
        let top = max(-20, ((levels.max() ?? -20) / 10).rounded(.up) * 10 + 10)
        let lowHz = h.thd.first?.frequencyHz ?? 20, highHz = h.linear.last?.frequencyHz ?? 20000
        let harmonics = LinePlot(
            title: String(format: "Harmonic distortion by order at %.1f dBFS (dB re the fundamental)", h.levelDBFS),
            xAxis: .logarithmic(title: "fundamental frequency (Hz)", covering: lowHz, highHz),
            yAxis: Axis(title: "level (dB re fundamental)", lower: max(top - 160, -200), upper: top),
            series: series)
        harmonics.draw(into: &writer, box: SVGWriter.plotBox(width: width, top: 0, height: 500, rightMargin: 120))

        let delays = h.linear.map(\.groupDelayMs).filter(\.isFinite)
        let low = delays.min() ?? 0, high = delays.max() ?? 1
        let margin = max(0.05, (high - low) * 0.1)
        let delayPlot = LinePlot(
            title: "Group delay of the linear response (latency included)",
            xAxis: .logarithmic(title: "frequency (Hz)", covering: h.linear.first?.frequencyHz ?? 20, highHz),
            yAxis: Axis(title: "group delay (ms)", lower: low - margin, upper: high + margin),
            series: [.init(name: "group delay", points: h.linear.map { ($0.frequencyHz, $0.groupDelayMs) })])
        delayPlot.draw(into: &writer, box: SVGWriter.plotBox(width: width, top: 500, height: 500, rightMargin: 120))
        return writer.document()
    }
}
