import Foundation

/// The markdown table the benchmark prints.
struct ResultTable {
    private var rows: [[String]] = []

    mutating func add(_ benchmark: String, toneNode: String, reference: String, ratio: String) {
        rows.append([benchmark, toneNode, reference, ratio])
    }

    /// A row of per-operation times shown as a cost (smaller is better).
    mutating func addCost(_ benchmark: String, _ comparison: Comparison, scale: Double, unit: String) {
        add(benchmark,
            toneNode: cost(comparison.toneNode, scale: scale, unit: unit),
            reference: cost(comparison.reference, scale: scale, unit: unit),
            ratio: ratioText(comparison.ratio))
    }

    /// A row of per-operation times shown as a rate (larger is better).
    mutating func addRate(_ benchmark: String, _ comparison: Comparison, unit: String) {
        add(benchmark,
            toneNode: rate(comparison.toneNode, unit: unit),
            reference: rate(comparison.reference, unit: unit),
            ratio: ratioText(comparison.ratio))
    }

    var markdown: String {
        let header = ["benchmark", "ToneNode", "reference", "ratio"]
        let all = [header] + rows
        let widths = (0..<header.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    private func cost(_ timings: Timings, scale: Double, unit: String) -> String {
        "\(number(timings.median * scale)) \(unit) (min \(number(timings.minimum * scale)))"
    }

    private func rate(_ timings: Timings, unit: String) -> String {
        "\(number(1 / timings.median)) \(unit) (max \(number(1 / timings.minimum)))"
    }
}

func ratioText(_ ratio: Double) -> String { String(format: "%.2f×", ratio) }

/// Three significant figures, no exponent for the values printed here.
func number(_ value: Double) -> String {
    let magnitude = abs(value)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
    return String(format: "%.\(decimals)f", value)
}
