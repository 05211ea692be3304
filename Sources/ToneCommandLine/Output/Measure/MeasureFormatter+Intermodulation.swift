import Foundation
import ToneCore
import ToneDSP

/// `measure --what imd`: SMPTE and CCIF intermodulation.
extension MeasureFormatter {
    public static func human(_ m: IntermodulationMeasurement) -> String {
        var lines = [String(format: "IMD SMPTE   %.1f dB (%.5f %%)  60 Hz + 7 kHz 4:1; 7k±60 %@ dB, 7k±120 %@ dB",
                            m.smpteDB, m.smptePercent, pairText(m.smpteProducts, order: 2), pairText(m.smpteProducts, order: 3))]
        if let d2 = m.ccifD2DB, let d3 = m.ccifD3DB {
            lines.append(String(format: "IMD CCIF    d2 %.1f dB, d3 %.1f dB  (%@ + %@ Hz 1:1, re the sum of the tones)",
                                d2, d3, format(m.ccifLowHz.rounded()), format(m.ccifHighHz.rounded())))
        }
        return lines.joined(separator: "\n")
    }

    /// "−48.1/−48.1": the lower and upper sideband of one order.
    public static func pairText(_ products: [IntermodulationMeasurement.Product], order: Int) -> String {
        products.filter { $0.order == order }.map { String(format: "%.1f", $0.levelDB) }.joined(separator: "/")
    }

    public static func json(_ m: IntermodulationMeasurement) -> JSONLine {
        func products(_ list: [IntermodulationMeasurement.Product]) -> [JSONLine] {
            list.map { product in
                var p = JSONLine()
                p.add("hz", product.frequencyHz)
                p.add("order", product.order)
                p.add("db", rounded(product.levelDB, 3))
                return p
            }
        }
        var object = JSONLine()
        object.add("smpte_db", m.smpteDB)
        object.add("smpte_percent", m.smptePercent)
        object.add("smpte_products", products(m.smpteProducts))
        object.add("ccif_low_hz", m.ccifLowHz)
        object.add("ccif_high_hz", m.ccifHighHz)
        object.add("ccif_d2_db", m.ccifD2DB)
        object.add("ccif_d3_db", m.ccifD3DB)
        object.add("ccif_products", products(m.ccifProducts))
        return object
    }
}
