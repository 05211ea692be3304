import Foundation

/// Builds an SVG document element by element: the pieces every chart needs
/// (frame, grid, ticks, titles, curves, text, an embedded image).
public struct SVGWriter: Sendable {
    /// A rectangle in SVG user units (pixels), y growing downwards.
    public struct Box: Sendable, Equatable {
        public var x: Double, y: Double, width: Double, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    public let width: Double
    public let height: Double
    private var body: [String] = []
    private var clipCount = 0
    /// Every text written so far, as the box it covers (the rotated y-axis title too): what later labels keep clear of.
    public private(set) var textBoxes: [TextBox] = []
    /// Areas kept clear of later labels that are not text (a legend's frame): see `reserve`.
    var reservedAreas: [TextBox] = []

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The plot area of a panel `height` high starting at `top`, leaving room for labels.
    public static func plotBox(width: Double, top: Double, height: Double, rightMargin: Double = 30) -> Box {
        Box(x: 80, y: top + 46, width: width - 80 - rightMargin, height: height - 46 - 58)
    }

    public func document() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \
        width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))" \
        font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
        <rect x="0" y="0" width="\(n(width))" height="\(n(height))" fill="#ffffff"/>
        \(body.joined(separator: "\n"))
        </svg>

        """
    }

    /// Title, grid, ticks with labels, axis titles and the border of `box`.
    /// - Parameter overImage: a sparse, translucent grid (major lines only) that does not hide a picture.
    public mutating func frame(box: Box, title: String, xAxis: Axis, yAxis: Axis, overImage: Bool = false) {
        body.append(overImage ? "<g class=\"grid\" opacity=\"0.35\">" : "<g class=\"grid\">")
        func gridColor(_ major: Bool) -> String? {
            overImage ? (major ? "#ffffff" : nil) : (major ? "#c8c8c8" : "#ececec")
        }
        for tick in xAxis.ticks {
            let x = box.x + xAxis.position(tick.value) * box.width
            if let color = gridColor(tick.major) { line(x1: x, y1: box.y, x2: x, y2: box.y + box.height, color: color, width: 1) }
        }
        for tick in yAxis.ticks {
            let y = box.y + (1 - yAxis.position(tick.value)) * box.height
            if let color = gridColor(tick.major) { line(x1: box.x, y1: y, x2: box.x + box.width, y2: y, color: color, width: 1) }
        }
        body.append("</g>")
        for tick in xAxis.ticks where !tick.label.isEmpty {
            text(tick.label, x: box.x + xAxis.position(tick.value) * box.width, y: box.y + box.height + 18,
                 size: 12, anchor: "middle")
        }
        for tick in yAxis.ticks where !tick.label.isEmpty {
            text(tick.label, x: box.x - 8, y: box.y + (1 - yAxis.position(tick.value)) * box.height + 4,
                 size: 12, anchor: "end")
        }
        body.append("<rect class=\"plot-box\" x=\"\(n(box.x))\" y=\"\(n(box.y))\" width=\"\(n(box.width))\" "
                    + "height=\"\(n(box.height))\" fill=\"none\" stroke=\"#404040\" stroke-width=\"1\"/>")
        // A title wider than the panel's width shrinks to fit it.
        let titleSize = min(17, 17 * (box.width + 60) / max(1, TextBox.width(of: title, size: 17) * 1.08))
        text(title, x: box.x + box.width / 2, y: box.y - 16, size: titleSize.rounded(.down), anchor: "middle",
             weight: "bold", className: "title")
        text(xAxis.title, x: box.x + box.width / 2, y: box.y + box.height + 44, size: 14, anchor: "middle",
             className: "x-label")
        let yMid = box.y + box.height / 2
        // Left of the widest tick label (a pitch axis's "E4 330"), never off the picture.
        let widestTick = yAxis.ticks.map { TextBox.width(of: $0.label, size: 12) }.max() ?? 0
        let yTitleX = max(0.78 * 14 + 2, min(box.x - 56, box.x - 8 - widestTick - 0.25 * 14 - 4))
        let yTitleLength = TextBox.width(of: yAxis.title, size: 14)
        textBoxes.append(TextBox(text: yAxis.title, x: yTitleX - 0.78 * 14, y: yMid - yTitleLength / 2,
                                 width: 1.02 * 14, height: yTitleLength))
        body.append("<text class=\"y-label\" x=\"\(n(yTitleX))\" y=\"\(n(yMid))\" font-size=\"14\" "
                    + "text-anchor=\"middle\" fill=\"#202020\" transform=\"rotate(-90 \(n(yTitleX)) \(n(yMid)))\">"
                    + "\(escape(yAxis.title))</text>")
    }

    /// Everything drawn until `closeClip` is cut to `box`.
    public mutating func openClip(box: Box) {
        clipCount += 1
        body.append("<clipPath id=\"clip\(clipCount)\"><rect x=\"\(n(box.x))\" y=\"\(n(box.y))\" "
                    + "width=\"\(n(box.width))\" height=\"\(n(box.height))\"/></clipPath>")
        body.append("<g clip-path=\"url(#clip\(clipCount))\">")
    }

    public mutating func closeClip() { body.append("</g>") }

    public mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, color: String, width: Double,
                              dashed: Bool = false) {
        body.append("<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(color)\" "
                    + "stroke-width=\"\(n(width))\"" + (dashed ? " stroke-dasharray=\"5 4\"" : "") + "/>")
    }

    public mutating func polyline(_ points: [(Double, Double)], color: String, width: Double) {
        guard !points.isEmpty else { return }
        let list = points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
        body.append("<polyline class=\"curve\" points=\"\(list)\" fill=\"none\" stroke=\"\(color)\" "
                    + "stroke-width=\"\(n(width))\" stroke-linejoin=\"round\"/>")
    }

    /// - Parameters:
    ///   - opacity: of the fill, when less than 1 (a legend's backdrop);
    ///   - stroke: the colour of a 1-unit border, if any.
    public mutating func rect(_ box: Box, fill: String, opacity: Double = 1, stroke: String? = nil) {
        let extra = (opacity < 1 ? " fill-opacity=\"\(n(opacity))\"" : "")
            + (stroke.map { " stroke=\"\($0)\" stroke-width=\"1\"" } ?? "")
        body.append("<rect x=\"\(n(box.x))\" y=\"\(n(box.y))\" width=\"\(n(box.width))\" height=\"\(n(box.height))\" "
                    + "fill=\"\(fill)\"\(extra)/>")
    }

    public mutating func text(_ string: String, x: Double, y: Double, size: Double, color: String = "#202020",
                              anchor: String, weight: String = "normal", className: String? = nil) {
        let cls = className.map { " class=\"\($0)\"" } ?? ""
        textBoxes.append(TextBox(string, x: x, y: y, size: size, anchor: anchor))
        body.append("<text\(cls) x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" text-anchor=\"\(anchor)\" "
                    + "font-weight=\"\(weight)\" fill=\"\(color)\">\(escape(string))</text>")
    }

    /// A raster picture (PNG bytes) stretched over `box`, pixels kept sharp.
    public mutating func image(png: [UInt8], box: Box) {
        let data = Data(png).base64EncodedString()
        body.append("<image x=\"\(n(box.x))\" y=\"\(n(box.y))\" width=\"\(n(box.width))\" height=\"\(n(box.height))\" "
                    + "preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" "
                    + "xlink:href=\"data:image/png;base64,\(data)\"/>")
    }

    /// Numbers with at most two decimals.
    private func n(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    private func escape(_ string: String) -> String {
        string.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
