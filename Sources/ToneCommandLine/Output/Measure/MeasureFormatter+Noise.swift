import Foundation
import ToneCore
import ToneDSP

/// `measure --what noise`: idle noise, SNR, dynamic range, hum.
extension MeasureFormatter {
    public static func human(_ n: NoiseMeasurement) -> String {
        let band = "\(format(n.bandLowHz))–\(format(n.bandHighHz.rounded())) Hz"
        // Digital zero has no level: say so rather than print the clamp (−400 dBFS).
        let noiseLine = n.noiseDBFS < -300
            ? "noise       digital silence when idle (\(band)); SNR unbounded"
            : String(format: "noise       %.1f dBFS, A-weighted %.1f dBFS (idle, %@); SNR %.1f dB, A-weighted %.1f dB",
                     n.noiseDBFS, n.noiseAWeightedDBFS, band, n.snrDB, n.snrAWeightedDB)
        var lines = [
            noiseLine,
            String(format: "dyn. range  %.1f dB A-weighted, %.1f dB unweighted (THD+N of a -60 dBFS tone, re full scale)",
                   n.dynamicRangeDB, n.dynamicRangeUnweightedDB),
        ]
        if n.humLines.isEmpty {
            lines.append("hum         none (no 50/60 Hz line 10 dB above the noise)")
        } else {
            lines.append("hum         " + n.humLines.map {
                String(format: "%@ Hz (%@×%d) %.1f dBFS", format($0.frequencyHz), format($0.mainsHz), $0.harmonic, $0.levelDBFS)
            }.joined(separator: " | "))
        }
        return lines.joined(separator: "\n")
    }

    public static func json(_ n: NoiseMeasurement) -> JSONLine {
        var object = JSONLine()
        object.add("band_low_hz", n.bandLowHz)
        object.add("band_high_hz", n.bandHighHz)
        object.add("noise_dbfs", n.noiseDBFS)
        object.add("noise_a_weighted_dbfs", n.noiseAWeightedDBFS)
        object.add("snr_db", n.snrDB)
        object.add("snr_a_weighted_db", n.snrAWeightedDB)
        object.add("dynamic_range_db", n.dynamicRangeDB)
        object.add("dynamic_range_unweighted_db", n.dynamicRangeUnweightedDB)
        object.add("hum", n.humLines.map { line in
            var p = JSONLine()
            p.add("hz", line.frequencyHz)
            p.add("mains_hz", line.mainsHz)
            p.add("harmonic", line.harmonic)
            p.add("dbfs", line.levelDBFS)
            return p
        })
        return object
    }
}
