import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TonePlot

/// Collects every element (name, attributes) and the text of every `<text>`.
final class SVGCollector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var texts: [(className: String?, text: String)] = []
    private var currentText: String?
    private var currentClass: String?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append((name, attributes))
        if name == "text" {
            currentText = ""
            currentClass = attributes["class"]
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { currentText? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let text = currentText { texts.append((currentClass, text)) }
        currentText = nil
    }

    /// Parses `svg`; nil when it is not well-formed XML.
    static func parse(_ svg: String) -> SVGCollector? {
        let collector = SVGCollector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }

    func text(ofClass name: String) -> String? { texts.first { $0.className == name }?.text }

    var plotBoxes: [(x: Double, y: Double, width: Double, height: Double)] {
        elements.filter { $0.name == "rect" && $0.attributes["class"] == "plot-box" }.compactMap { element in
            guard let x = Double(element.attributes["x"] ?? ""), let y = Double(element.attributes["y"] ?? ""),
                  let w = Double(element.attributes["width"] ?? ""), let h = Double(element.attributes["height"] ?? "")
            else { return nil }
            return (x, y, w, h)
        }
    }

    var curvePoints: [(Double, Double)] {
        elements.filter { $0.name == "polyline" }.flatMap { element in
            (element.attributes["points"] ?? "").split(separator: " ").compactMap { pair -> (Double, Double)? in
                let parts = pair.split(separator: ",")
                guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else { return nil }
                return (x, y)
            }
        }
    }
}

@Suite("SVG charts are well-formed and labelled")
struct SVGStructureTests {
    static func responsePlot(gains: [Double]) -> LinePlot {
        let frequencies = (0..<gains.count).map { 20 * pow(1000, Double($0) / Double(gains.count - 1)) }
        return LinePlot(title: "Frequency response",
                        xAxis: Axis(title: "frequency (Hz)", lower: 20, upper: 20000, scale: .logarithmic),
                        yAxis: Axis(title: "gain (dB)", lower: -24, upper: 6),
                        series: [.init(name: "gain", points: Array(zip(frequencies, gains)))])
    }

    @Test func lineChartHasTitlesTicksAndACurveInsideItsBox() throws {
        let gains = (0..<200).map { -3 * sin(Double($0) / 20) }
        let svg = Self.responsePlot(gains: gains).svg()
        let parsed = try #require(SVGCollector.parse(svg), "not well-formed XML")
        #expect(parsed.elements.first?.name == "svg")
        #expect(parsed.text(ofClass: "title") == "Frequency response")
        #expect(parsed.text(ofClass: "x-label") == "frequency (Hz)")
        #expect(parsed.text(ofClass: "y-label") == "gain (dB)")
        let labels = Set(parsed.texts.map(\.text))
        for tick in ["20", "100", "1k", "10k", "20k", "0", "-20"] { #expect(labels.contains(tick), "tick \(tick)") }
        let box = try #require(parsed.plotBoxes.first)
        let points = parsed.curvePoints
        #expect(points.count == 200)
        for (x, y) in points {
            #expect(x >= box.x - 0.01 && x <= box.x + box.width + 0.01 && y >= box.y - 0.01 && y <= box.y + box.height + 0.01)
        }
        // Log axis: 1 kHz lies 2/3 of the way from 20 Hz… no: log(1000/20)/log(1000) = 0.566 of the width.
        let xs = points.map(\.0)
        #expect(abs((xs.last! - xs.first!) - box.width) < 0.02)
    }

    @Test func valuesOutsideTheAxisAreClampedIntoTheBox() throws {
        let svg = Self.responsePlot(gains: [-300, 50, .nan, 0, 0]).svg()
        let parsed = try #require(SVGCollector.parse(svg))
        let box = try #require(parsed.plotBoxes.first)
        #expect(parsed.curvePoints.count == 4)
        #expect(parsed.curvePoints.allSatisfy { $0.1 >= box.y - 0.01 && $0.1 <= box.y + box.height + 0.01 })
    }

    @Test func histogramCountsIntoBinsAndDrawsOneBarPerFilledBin() throws {
        // 0.05 … 0.95 in 10 bins of 0.1: three values in bin 2, one in bin 7, one below (bin 0), one above (bin 9).
        var histogram = Histogram(title: "Latency", xTitle: "latency (ms)", values: [0.21, 0.25, 0.29, 0.75, -4, 12, .nan],
                                  lower: 0, upper: 1, bins: 10)
        histogram.markers = [(0.25, "median")]
        #expect(histogram.counts == [1, 0, 3, 0, 0, 0, 0, 1, 0, 1])
        let parsed = try #require(SVGCollector.parse(histogram.svg()), "not well-formed XML")
        #expect(parsed.text(ofClass: "title") == "Latency")
        #expect(parsed.text(ofClass: "x-label") == "latency (ms)")
        #expect(parsed.texts.contains { $0.text == "median" })
        let box = try #require(parsed.plotBoxes.first)
        let bars = parsed.elements.filter { $0.name == "rect" && $0.attributes["fill"] == "#1f6fb4" }
        #expect(bars.count == 4)
        let heights = bars.compactMap { $0.attributes["height"].flatMap(Double.init) }
        // The tallest bar (3) and the others (1) in proportion, all inside the box.
        #expect(abs((heights.max() ?? 0) / (heights.min() ?? 1) - 3) < 0.01)
        #expect(heights.allSatisfy { $0 <= box.height + 0.01 })
    }

    @Test func markerLabelsAndTheLegendStayInsideTheBoxAndClearOfEachOther() throws {
        var plot = Self.responsePlot(gains: [0, 0, 0])
        plot.series.append(.init(name: "a long name for the second curve", points: [(20, -300), (20000, -300)], color: "#c0392b"))
        plot.markers = [(19000, "19000 Hz"), (20000, "20000 Hz"), (19500, "19500 Hz")]
        var writer = SVGWriter(width: 900, height: 520)
        let box = SVGWriter.plotBox(width: 900, top: 0, height: 520)
        plot.draw(into: &writer, box: box)
        let texts = writer.textBoxes
        for (i, a) in texts.enumerated() {
            #expect(a.isInside(width: 900, height: 520), "\(a)")
            for b in texts[(i + 1)...] { #expect(!a.overlaps(b), "\(a.text) overlaps \(b.text)") }
        }
        for label in ["19000 Hz", "19500 Hz", "20000 Hz", "a long name for the second curve"] {
            let text = try #require(texts.first { $0.text == label })
            #expect(text.x >= box.x && text.maxX <= box.x + box.width && text.y >= box.y, "\(label): \(text)")
        }
        // The second curve lies wholly below the axis: named, not drawn.
        #expect(texts.contains { $0.text == "a long name for the second curve: all below -24 dB" })
        #expect(SVGCollector.parse(writer.document())?.elements.filter { $0.name == "polyline" }.count == 1)
    }

    @Test func logarithmicAxesWidenToALabelledTickNearby() {
        let axis = Axis.logarithmic(title: "f", covering: 20.6, 19_900)
        #expect(axis.lower == 20 && axis.upper == 20_000)
        #expect(axis.ticks.first?.label == "20")
        let far = Axis.logarithmic(title: "f", covering: 31, 24_000)
        #expect(far.lower == 31 && far.upper == 24_000)
    }

    @Test func textIsEscaped() throws {
        var plot = Self.responsePlot(gains: [0, 0])
        plot.title = "a <b> & \"c\""
        let parsed = try #require(SVGCollector.parse(plot.svg()))
        #expect(parsed.text(ofClass: "title") == "a <b> & \"c\"")
    }

    @Test func heatmapEmbedsAValidPNGOfTheGridSize() throws {
        let values = (0..<30).map { column in (0..<20).map { row in Double(column + row) * -2 } }
        let heatmap = Heatmap(title: "Spectrogram", xAxis: Axis(title: "time (s)", lower: 0, upper: 3),
                              yAxis: Axis(title: "frequency (Hz)", lower: 20, upper: 24000, scale: .logarithmic),
                              colorTitle: "dBFS", colorLower: -100, colorUpper: 0, values: values)
        var writer = SVGWriter(width: 900, height: 500)
        heatmap.draw(into: &writer, box: SVGWriter.plotBox(width: 900, top: 0, height: 500, rightMargin: 120))
        let parsed = try #require(SVGCollector.parse(writer.document()))
        #expect(parsed.text(ofClass: "x-label") == "time (s)")
        #expect(parsed.text(ofClass: "y-label") == "frequency (Hz)")
        #expect(parsed.text(ofClass: "color-label") == "dBFS")
        let image = try #require(parsed.elements.first { $0.name == "image" })
        let href = try #require(image.attributes["xlink:href"])
        #expect(href.hasPrefix("data:image/png;base64,"))
        let png = try #require(Data(base64Encoded: String(href.dropFirst("data:image/png;base64,".count))))
        let bytes = [UInt8](png)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be32(_ offset: Int) -> Int { bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(be32(16) == 30 && be32(20) == 20, "IHDR width × height")
        // The image ends with the standard IEND chunk (its CRC is the well-known AE426082).
        #expect(Array(bytes.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }

    @Test func pngStoredBlocksSplitAt65535Bytes() {
        // 200 × 200 RGB rows: 120 200 bytes of scanlines, two stored blocks.
        let rgb = [UInt8](repeating: 7, count: 200 * 200 * 3)
        let png = PNGEncoder.encode(width: 200, height: 200, rgb: rgb)
        let idatLength = png[33..<37].reduce(0) { $0 << 8 | Int($1) }
        #expect(idatLength == 2 + (5 + 65535) + (5 + 120_200 - 65535) + 4)
    }
}
