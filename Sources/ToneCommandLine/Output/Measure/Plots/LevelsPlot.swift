import Foundation
import ToneCore
import ToneDSP
import TonePlot

/// `measure --what levels --plot`: THD+N versus level above gain versus level.
public enum LevelsPlot {
    public static func svg(_ sweep: LevelSweep) -> String {
        let width = 960.0
        var writer = SVGWriter(width: width, height: 1000)
        let low = sweep.points.first?.levelDBFS ?? -60, high = sweep.points.last?.levelDBFS ?? 0
        let thd = sweep.points.map { ($0.levelDBFS, $0.thdPlusNoiseDB) }
        let thdValues = thd.map(\.1).filter(\.isFinite)
        var thdPlot = LinePlot(
            title: String(format: "THD+N versus level at %@ Hz", format(sweep.toneFrequencyHz)),
            xAxis: Axis(title: "level (dBFS peak)", lower: low, upper: high),
            yAxis: Axis(title: "THD+N (dB re the tone)", lower: max(-200, ((thdValues.min() ?? -160) / 10).rounded(.down) * 10 - 10),
                        upper: max(0, ((thdValues.max() ?? 0) / 10).rounded(.up) * 10)),
            series: [.init(name: "THD+N", points: thd)])
        if let onePercent = sweep.onePercentLevelDBFS {
            thdPlot.markers = [(onePercent, String(format: "1 %% at %.1f dBFS", onePercent))]
        }
        thdPlot.draw(into: &writer, box: SVGWriter.plotBox(width: width, top: 0, height: 500, rightMargin: 120))
        let gains = sweep.points.map(\.gainDB).filter(\.isFinite)
        let gainPlot = LinePlot(
            title: "Gain versus level",
            xAxis: Axis(title: "level (dBFS peak)", lower: low, upper: high),
            yAxis: Axis(title: "gain (dB)", lower: ((gains.min() ?? -1) - 1).rounded(.down), upper: ((gains.max() ?? 1) + 1).rounded(.up)),
            series: [.init(name: "gain", points: sweep.points.map { ($0.levelDBFS, $0.gainDB) })])
        gainPlot.draw(into: &writer, box: SVGWriter.plotBox(width: width, top: 500, height: 500, rightMargin: 120))
        return writer.document()
    }
}
