import Foundation

/// A pitch tracker run as a child process on a file.
enum Detector {
    case toneNode(path: String, window: Int, hop: Int)
    case aubio(method: String, window: Int, hop: Int)

    var label: String {
        switch self {
        case .toneNode: "tonenode analyze --mode pitch"
        case .aubio(let method, _, _): "aubiopitch -p \(method)"
        }
    }

    struct Run {
        /// (time s, frequency Hz or nil for no pitch)
        var frames: [(Double, Double?)]
        var cpuSeconds: Double
    }

    func run(_ file: String, scratch: String) -> Run? {
        let arguments: [String]
        switch self {
        case .toneNode(let path, let window, let hop):
            arguments = [path, "analyze", "--mode", "pitch", "--fft-size", String(window), "--hop", String(hop), "--json", file]
        case .aubio(let method, let window, let hop):
            arguments = ["aubiopitch", "-p", method, "-B", String(window), "-H", String(hop), "-i", file]
        }
        guard let outcome = ChildProcess.run(arguments, stdoutPath: scratch), outcome.status == 0,
              let text = try? String(contentsOfFile: scratch, encoding: .utf8) else { return nil }
        var frames: [(Double, Double?)] = []
        for line in text.split(separator: "\n") {
            switch self {
            case .toneNode:
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let time = object["time_s"] as? Double else { continue }
                frames.append((time, object["freq_hz"] as? Double))
            case .aubio:
                let fields = line.split(separator: " ")
                guard fields.count >= 2, let time = Double(fields[0]), let frequency = Double(fields[1]) else { continue }
                frames.append((time, frequency > 0 ? frequency : nil))
            }
        }
        return Run(frames: frames, cpuSeconds: outcome.cpuSeconds)
    }
}

/// Accumulated errors of one detector over one file set.
struct Score {
    private var errors: [Double] = []
    private var gross = 0
    private var cpuSeconds = 0.0
    private var audioSeconds = 0.0

    mutating func add(_ frames: [(Double, Double?)], truthHz: Double, cpuSeconds: Double, audioSeconds: Double) {
        for (time, frequency) in frames where time >= 0.1 && time <= 1.5 {
            let cents = frequency.map { abs(1200 * log2($0 / truthHz)) } ?? .infinity
            errors.append(cents)
            if cents > 50 { gross += 1 }
        }
        self.cpuSeconds += cpuSeconds
        self.audioSeconds += audioSeconds
    }

    var summary: String {
        let sorted = errors.sorted()
        let median = sorted.isEmpty ? Double.nan : sorted[sorted.count / 2]
        let grossPercent = errors.isEmpty ? Double.nan : 100 * Double(gross) / Double(errors.count)
        let medianText = median.isFinite ? (median < 0.01 ? String(format: "%.4f", median) : String(format: "%.3f", median)) : "∞"
        return String(format: "%.1f%% / %@ / %.4f", grossPercent, medianText, cpuSeconds / audioSeconds)
    }
}

/// A markdown table.
struct PitchTable {
    var rows: [[String]] = []

    func markdown(header: [String]) -> String {
        let all = [header] + rows
        let widths = (0..<header.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
