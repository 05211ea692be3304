import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TonePlot

/// The texts of an SVG document as the boxes they cover (from x, y, text-anchor, font-size and the
/// rotation of a y-axis title, with `TextBox`'s width estimate), the picture's size, and the curves'
/// points with the plot boxes they belong in: what a layout test checks a picture against.
struct SVGTextLayout {
    var width = 0.0, height = 0.0
    var boxes: [TextBox] = []
    var plotBoxes: [TextBox] = []
    var curves: [[(Double, Double)]] = []

    init?(_ svg: String) {
        final class Delegate: NSObject, XMLParserDelegate {
            var layout = SVGTextLayout(empty: ())
            var attributes: [String: String]?
            var text = ""
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                        qualifiedName: String?, attributes: [String: String] = [:]) {
                func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? 0 }
                switch name {
                case "svg": (layout.width, layout.height) = (number("width"), number("height"))
                case "text": (self.attributes, text) = (attributes, "")
                case "rect" where attributes["class"] == "plot-box":
                    layout.plotBoxes.append(TextBox(text: "", x: number("x"), y: number("y"), width: number("width"),
                                                    height: number("height")))
                case "polyline":
                    layout.curves.append((attributes["points"] ?? "").split(separator: " ").compactMap { pair in
                        let parts = pair.split(separator: ",").compactMap { Double($0) }
                        return parts.count == 2 ? (parts[0], parts[1]) : nil
                    })
                default: break
                }
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { if attributes != nil { text += string } }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                guard name == "text", let attributes else { return }
                let x = Double(attributes["x"] ?? "") ?? 0, y = Double(attributes["y"] ?? "") ?? 0
                let size = Double(attributes["font-size"] ?? "") ?? 0, anchor = attributes["text-anchor"] ?? "start"
                let box = TextBox(text, x: x, y: y, size: size, anchor: anchor)
                if attributes["transform"]?.hasPrefix("rotate(-90") == true {
                    // Turned a quarter left about (x, y): the box's width runs up the page.
                    layout.boxes.append(TextBox(text: text, x: x - (y - box.y), y: y - (box.maxX - x),
                                                width: box.height, height: box.width))
                } else {
                    layout.boxes.append(box)
                }
                self.attributes = nil
            }
        }
        let delegate = Delegate()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = delegate
        guard parser.parse() else { return nil }
        self = delegate.layout
    }

    private init(empty: Void) {}

    /// Every problem: a text that leaves the picture, two texts that overlap, a curve point on the top
    /// edge of its plot box (a peak cut off by the y-range).
    var problems: [String] {
        var problems: [String] = []
        for box in boxes where !box.isInside(width: width, height: height) {
            problems.append("'\(box.text)' leaves the \(width)×\(height) picture: \(box)")
        }
        for (i, a) in boxes.enumerated() {
            for b in boxes[(i + 1)...] where a.overlaps(b) { problems.append("'\(a.text)' overlaps '\(b.text)'") }
        }
        for curve in curves {
            guard let plot = plotBoxes.first(where: { p in curve.allSatisfy { $0.0 >= p.x - 0.5 && $0.0 <= p.maxX + 0.5 && $0.1 >= p.y - 0.5 && $0.1 <= p.maxY + 0.5 } })
            else { continue }
            if curve.contains(where: { abs($0.1 - plot.y) < 0.01 }) { problems.append("a curve is cut off at the top of its plot at y \(plot.y)") }
        }
        return problems
    }
}
