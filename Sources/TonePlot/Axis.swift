import Foundation


/// One axis of a chart: its range, scale, title and tick marks.
public struct Axis: Sendable, Equatable {
    public enum Scale: Sendable, Equatable {
        case linear
        /// Base-10 logarithmic (both ends must be positive).
        case logarithmic
    }

    public var title: String
    public var lower: Double
    public var upper: Double
    public var scale: Scale
    /// Ticks given by the chart (a pitch axis's note names) instead of the computed ones.
    public var fixedTicks: [Tick]?

    public struct Tick: Sendable, Equatable {
        public var value: Double
        public var label: String
        /// A major tick gets a darker gridline.
        public var major: Bool
        public init(value: Double, label: String, major: Bool = true) {
            self.value = value
            self.label = label
            self.major = major
        }
    }

    public init(title: String, lower: Double, upper: Double, scale: Scale = .linear) {
        self.title = title
        self.lower = lower
        self.upper = upper > lower ? upper : lower + 1
        self.scale = scale
    }

    public func contains(_ value: Double) -> Bool { value >= lower * (1 - 1e-9) - 1e-12 && value <= upper * (1 + 1e-9) + 1e-12 }

    /// 0 at `lower`, 1 at `upper`.
    public func position(_ value: Double) -> Double {
        switch scale {
        case .linear: return (value - lower) / (upper - lower)
        case .logarithmic:
            guard value > 0 else { return 0 }
            return log10(value / lower) / log10(upper / lower)
        }
    }

    /// Tick values and their labels.
    public var ticks: [(value: Double, label: String, major: Bool)] {
        if let fixedTicks { return fixedTicks.filter { contains($0.value) }.map { ($0.value, $0.label, $0.major) } }
        switch scale {
        case .logarithmic:
            var ticks: [(Double, String, Bool)] = []
            var decade = pow(10, floor(log10(lower)))
            while decade <= upper {
                for multiple in [1.0, 2, 5] {
                    let value = decade * multiple
                    if contains(value) { ticks.append((value, Self.hertzLabel(value), multiple == 1)) }
                }
                for multiple in [3.0, 4, 6, 7, 8, 9] {
                    let value = decade * multiple
                    if contains(value) { ticks.append((value, "", false)) }
                }
                decade *= 10
            }
            return ticks
        case .linear:
            let step = Self.niceStep((upper - lower) / 6)
            var value = ceil(lower / step) * step
            var ticks: [(Double, String, Bool)] = []
            while value <= upper + step * 1e-9 {
                ticks.append((value, Self.number(value, step: step), true))
                value += step
            }
            return ticks
        }
    }

    /// A logarithmic axis over `lower…upper`, each end widened to the labelled tick (1, 2 or 5 times a
    /// power of ten) just beyond it when that lies within a third of an octave: data from 20.6 Hz gets
    /// an axis from 20 Hz and its "20" label.
    public static func logarithmic(title: String, covering lower: Double, _ upper: Double) -> Axis {
        func labelled(_ value: Double, up: Bool) -> Double {
            guard value > 0, value.isFinite else { return value }
            let decade = pow(10, floor(log10(value)))
            let multiples = up ? [1.0, 2, 5, 10] : [10.0, 5, 2, 1]
            let tick = (up ? multiples.first { decade * $0 >= value * (1 - 1e-9) }
                           : multiples.first { decade * $0 <= value * (1 + 1e-9) }).map { decade * $0 } ?? value
            return abs(log2(tick / value)) <= 1.0 / 3 ? tick : value
        }
        return Axis(title: title, lower: labelled(lower, up: false), upper: labelled(upper, up: true), scale: .logarithmic)
    }

    /// 1, 2 or 5 times a power of ten, near `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, floor(log10(raw)))
        let fraction = raw / power
        return (fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10) * power
    }

    static func number(_ value: Double, step: Double) -> String {
        let rounded = abs(value) < step * 1e-6 ? 0 : value
        if step >= 1 { return String(Int(rounded.rounded())) }
        let digits = max(0, Int(ceil(-log10(step))))
        return String(format: "%.\(digits)f", rounded)
    }

    /// 20, 500, 1k, 20k.
    static func hertzLabel(_ value: Double) -> String {
        if value >= 1000 {
            let k = value / 1000
            return (k == k.rounded() ? String(Int(k)) : String(k)) + "k"
        }
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
