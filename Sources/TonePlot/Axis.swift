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
