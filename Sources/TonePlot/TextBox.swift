import Foundation

/// The rectangle a piece of text covers, estimated from its font size (no
/// font is at hand when the SVG is written): what the charts lay their
/// labels out with, and what a test checks pictures against.
public struct TextBox: Sendable, Equatable {
    public var text: String
    public var x: Double, y: Double, width: Double, height: Double

    public init(text: String, x: Double, y: Double, width: Double, height: Double) {
        self.text = text
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The box of `text` drawn at (`x`, `y`) (`y` the baseline) with `anchor` "start", "middle" or "end".
    public init(_ text: String, x: Double, y: Double, size: Double, anchor: String) {
        let width = Self.width(of: text, size: size)
        let left = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x
        self.init(text: text, x: left, y: y - 0.78 * size, width: width, height: 1.02 * size)
    }

    /// An estimate of the advance width of `text` in DejaVu Sans (the widest
    /// of the fonts an SVG here names), on the generous side: per character
    /// class, in ems.
    public static func width(of text: String, size: Double) -> Double {
        var ems = 0.0
        for character in text {
            switch character {
            case " ", "i", "l", "j", "I", ".", ",", ":", ";", "|", "!", "'", "(", ")", "[", "]", "f", "t", "r":
                ems += 0.40
            case "m", "w", "M", "W", "%", "…", "—":
                ems += 0.95
            case "−", "+", "=", "<", ">", "→", "±":
                ems += 0.84
            default:
                ems += character.isUppercase ? 0.74 : 0.64
            }
        }
        return ems * size
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    public func overlaps(_ other: TextBox) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// Whether the box lies inside (`0…width`, `0…height`).
    public func isInside(width frameWidth: Double, height frameHeight: Double) -> Bool {
        x >= 0 && y >= 0 && maxX <= frameWidth && maxY <= frameHeight
    }

    /// The box grown by `margin` on every side.
    public func padded(_ margin: Double) -> TextBox {
        TextBox(text: text, x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
    }
}
