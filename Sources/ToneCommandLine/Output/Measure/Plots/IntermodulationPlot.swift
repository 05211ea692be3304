import Foundation
import ToneCore
import ToneDSP
import TonePlot

/// `measure --what imd --plot`: the SMPTE twin tone's spectrum above the CCIF twin tone's.
public enum IntermodulationPlot {
    public static func svg(_ m: IntermodulationMeasurement) -> String {
        let width = 960.0
        var writer = SVGWriter(width: width, height: 1000)
        let panels: [(title: String, reference: String, lines: [SpectrumLine], tones: [Double])] = [
            (String(format: "SMPTE 60 Hz + 7 kHz 4:1: IMD %.1f dB (%.5f %%)", m.smpteDB, m.smptePercent), "7 kHz tone",
             m.smpteSpectrum, [60, 7000]),
            (String(format: "CCIF %@ + %@ Hz 1:1: d2 %.1f dB, d3 %.1f dB", format(m.ccifLowHz.rounded()), format(m.ccifHighHz.rounded()),
                    m.ccifD2DB ?? .nan, m.ccifD3DB ?? .nan), "sum of the tones", m.ccifSpectrum, [m.ccifLowHz, m.ccifHighHz]),
        ]
        for (index, panel) in panels.enumerated() {
            let points = panel.lines.plotPoints()
            let levels = points.map(\.y).filter { $0.isFinite && $0 > -299 }
            let bottom = max(-300, ((levels.min() ?? -200) / 10).rounded(.down) * 10)
            var plot = LinePlot(
                title: panel.title,
                xAxis: .logarithmic(title: "frequency (Hz)", covering: points.first?.x ?? 20, points.last?.x ?? 24000),
                // The SMPTE 60 Hz tone stands 12 dB above the 7 kHz one: the top from the data, 3 dB clear of the highest peak.
                yAxis: Axis(title: "dB re the \(panel.reference)", lower: bottom, upper: max(10, (((levels.max() ?? 0) + 3) / 10).rounded(.up) * 10)),
                series: [.init(name: "spectrum", points: points)])
            plot.markers = panel.tones.map { ($0, format($0.rounded()) + " Hz") }
            plot.draw(into: &writer, box: SVGWriter.plotBox(width: width, top: 500 * Double(index), height: 500, rightMargin: 120))
        }
        return writer.document()
    }
}
