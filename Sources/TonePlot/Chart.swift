import Foundation

/// A chart that draws itself into a box of an `SVGWriter`; `svg` makes it a whole document of its own.
public protocol Chart {
    /// Draws into `box` (the area of the plot itself; labels go around it).
    func draw(into writer: inout SVGWriter, box: SVGWriter.Box)
}

extension Chart {
    /// A whole SVG document of this one chart.
    public func svg(width: Double = 900, height: Double = 520) -> String {
        var writer = SVGWriter(width: width, height: height)
        draw(into: &writer, box: SVGWriter.plotBox(width: width, top: 0, height: height))
        return writer.document()
    }
}
