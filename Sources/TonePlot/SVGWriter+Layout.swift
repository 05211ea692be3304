import Foundation

/// Label placement: a label goes to the first of its candidate places that
/// stays inside its region and clear of every text (and reserved area)
/// already in the picture; places that cover no curve are tried first.
extension SVGWriter {
    /// Where a text goes: `y` is the baseline, `anchor` "start", "middle" or "end".
    public struct Place: Sendable, Equatable {
        public var x: Double, y: Double, anchor: String
        public init(x: Double, y: Double, anchor: String) {
            self.x = x
            self.y = y
            self.anchor = anchor
        }
    }

    /// Keeps later labels clear of `area` (a legend's frame) without writing anything.
    public mutating func reserve(_ area: Box) {
        reservedAreas.append(TextBox(text: "", x: area.x, y: area.y, width: area.width, height: area.height))
    }

    /// Whether `box` lies inside `region` and clear of every text and reserved area so far.
    public func isFree(_ box: TextBox, inside region: Box) -> Bool {
        box.x >= region.x && box.maxX <= region.x + region.width && box.y >= region.y
            && box.maxY <= region.y + region.height
            && !textBoxes.contains { $0.padded(1).overlaps(box) } && !reservedAreas.contains { $0.overlaps(box) }
    }

    /// The first candidate place for `text` that is free inside `region`, preferring places that cover
    /// none of `curvePoints` (screen coordinates); nil when every candidate collides.
    public func firstFreePlace(for text: String, size: Double, candidates: [Place], inside region: Box,
                               curvePoints: [(Double, Double)] = []) -> Place? {
        let free = candidates.filter { isFree(TextBox(text, x: $0.x, y: $0.y, size: size, anchor: $0.anchor), inside: region) }
        let clearOfCurves = free.first { place in
            let box = TextBox(text, x: place.x, y: place.y, size: size, anchor: place.anchor).padded(2)
            return !curvePoints.contains { $0.0 >= box.x && $0.0 <= box.maxX && $0.1 >= box.y && $0.1 <= box.maxY }
        }
        return clearOfCurves ?? free.first
    }

    /// A marker line's label (red, 12 units) beside the line at `x`, right of it or left, in the first
    /// row from the top of `box` where it clears every other text; left out when no row has room.
    public mutating func markerLabel(_ label: String, x: Double, box: Box, curvePoints: [(Double, Double)] = []) {
        let candidates = (0..<max(1, Int((box.height - 8) / 16))).flatMap { row -> [Place] in
            let y = box.y + 14 + 16 * Double(row)
            return [Place(x: x + 4, y: y, anchor: "start"), Place(x: x - 4, y: y, anchor: "end")]
        }
        if let place = firstFreePlace(for: label, size: 12, candidates: candidates, inside: box, curvePoints: curvePoints) {
            text(label, x: place.x, y: place.y, size: 12, color: "#c0392b", anchor: place.anchor)
        }
    }
}
