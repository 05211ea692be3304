import Foundation
import ToneCore
import ToneDSP
import TonePlot

/// `measure --what noise --plot`: the idle noise's spectrum and what is left of the −60 dBFS tone, hum lines marked.
public enum NoisePlot {
    public static func svg(_ n: NoiseMeasurement) -> String {
        let idle = n.idleSpectrum.plotPoints(), residual = n.toneResidualSpectrum.plotPoints()
        let levels = (idle + residual).map(\.y).filter { $0.isFinite && $0 > -390 }
        let top = max(-100, ((levels.max() ?? -100) / 10).rounded(.up) * 10 + 10)
        let bottom = max(top - 200, ((levels.min() ?? -300) / 10).rounded(.down) * 10)
        let noiseText = n.noiseDBFS < -300 ? "digital silence" : String(format: "%.1f dBFS (A: %.1f)", n.noiseDBFS, n.noiseAWeightedDBFS)
        var plot = LinePlot(
            title: String(format: "Idle noise %@; dynamic range %.1f dB (A)", noiseText, n.dynamicRangeDB),
            xAxis: Axis(title: "frequency (Hz)", lower: n.bandLowHz, upper: idle.last?.x ?? n.bandHighHz, scale: .logarithmic),
            yAxis: Axis(title: String(format: "power per %.1f Hz bin (dBFS)", n.spectrumBinHz), lower: bottom, upper: top),
            series: [.init(name: "idle", points: idle),
                     .init(name: "-60 dBFS tone, sine removed", points: residual, color: "#d35400")])
        plot.floorUnit = "dBFS"
        plot.markers = n.humLines.map { ($0.frequencyHz, String(format: "%@ Hz %.0f dBFS", format($0.frequencyHz), $0.levelDBFS)) }
        return plot.svg(width: 960, height: 540)
    }
}
