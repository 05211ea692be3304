// cable-bench: net rate against SNR for every modem profile (the tone profiles and
// cable) and amodem on the same white-noise channel, beside Shannon's capacity of
// the 19.8 kHz cable band; one markdown table and one plot (SVG, and PNG through
// rsvg-convert when it is there).
//
//   swift run -c release --package-path Benchmarks cable-bench [--bytes N] [--trials N] [--snr 0,10,…]
//       [--no-amodem] [--plot Benchmarks/cable-rate.svg]
import Foundation
import ToneDSP
import ToneModem
import ToneTestSupport
import TonePlot

func progress(_ message: String) {
    FileHandle.standardError.write(Data("… \(message)\n".utf8))
}

var bytes = 48 * 1024
var trials = 10
var snrs: [Double] = [-30, -20, -10, -5, 0, 5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90]
var useAModem = true
var plotPath = "Benchmarks/cable-rate.svg"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--bytes": bytes = Int(arguments.next() ?? "") ?? bytes
    case "--trials": trials = Int(arguments.next() ?? "") ?? trials
    case "--snr": snrs = (arguments.next() ?? "").split(separator: ",").compactMap { Double(String($0)) }
    case "--no-amodem": useAModem = false
    case "--plot": plotPath = arguments.next() ?? plotPath
    default:
        FileHandle.standardError.write(Data("cable-bench: error: unknown option \(argument)\n".utf8))
        exit(64)
    }
}

let started = ContinuousClock.now
var random = SeededRandom(seed: 2024)
let payload = (0..<bytes).map { _ in UInt8(truncatingIfNeeded: random.next()) }
let amodem = useAModem ? AModem.make() : nil
if useAModem && amodem == nil { progress("amodem could not be installed: its column is left out") }

var cable: [RatePoint] = []
var best: [RatePoint] = []
var tones: [ModemProfile: [RatePoint]] = [:]
do {
    for (index, snr) in snrs.enumerated() {
        progress(String(format: "%.0f dB: cable", snr))
        cable.append(try Senders.cable(payload: payload, snrDB: snr, seed: UInt64(100 + index)))
        for profile in ModemProfile.allCases {
            progress(String(format: "%.0f dB: %@", snr, profile.rawValue))
            tones[profile, default: []].append(try Senders.tones(profile, snrDB: snr, trials: trials))
        }
        if let amodem {
            progress(String(format: "%.0f dB: amodem", snr))
            best.append(Senders.amodem(amodem, payload: payload, snrDB: snr, seed: UInt64(200 + index)))
        }
    }
} catch {
    FileHandle.standardError.write(Data("cable-bench: error: \(error)\n".utf8))
    exit(1)
}

func kbps(_ value: Double) -> String { value >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value) }

var header = ["SNR (band)", "Shannon", "cable", "share", "cable streaming", "share", "exact"]
if amodem != nil { header += ["amodem (fastest that decodes)", "exact", "cable ÷ amodem"] }
header += ModemProfile.allCases.map(\.rawValue) + ["cable plan"]
print("| " + header.joined(separator: " | ") + " |")
print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
for (index, snr) in snrs.enumerated() {
    let shannon = Channel.shannonKbps(snr)
    var row = [String(format: "%.0f dB", snr), kbps(shannon), kbps(cable[index].kbps),
               String(format: "%.0f %%", 100 * cable[index].kbps / shannon), kbps(cable[index].streamingKbps),
               String(format: "%.0f %%", 100 * cable[index].streamingKbps / shannon), cable[index].exact ? "yes" : "no"]
    if amodem != nil {
        let other = best[index]
        row += [other.exact ? "\(kbps(other.kbps)) (\(other.note))" : "— (\(other.note))", other.exact ? "yes" : "no",
                other.kbps > 0 ? String(format: "%.1f×", cable[index].kbps / other.kbps) : "—"]
    }
    row += ModemProfile.allCases.map { profile in
        let point = tones[profile]![index]
        return "\(kbps(point.kbps)) (\(point.note))"
    }
    row.append(cable[index].note)
    print("| " + row.joined(separator: " | ") + " |")
}
print("")
print("- kbit/s net: payload bits over the whole transmission's airtime (cable: \(bytes) B with its chirp, training and header; "
      + "cable streaming: a long message's rate, frames alone; amodem: the same \(bytes) B at 28–80 kbit/s settings, about 3 s "
      + "of data at slower ones, its own preamble and silence included; tone profiles: 32 B messages, "
      + "their rate times the share of \(trials) seeded trials delivered exactly)")
print("- channel: white Gaussian noise; SNR = mean signal power against the noise in 200 Hz–20 kHz (the same noise density at "
      + "every sample rate: 48 kHz for ToneNode, 32/16/8 kHz for amodem's settings, written as 16-bit for amodem)")
if let amodem { print("- amodem \(amodem.version) from PyPI (numpy < 2), in a venv under \(amodem.folder)") }
print(String(format: "- total %.0f s", (ContinuousClock.now - started).seconds))

// The plot: rate on a log axis; a sender that delivers nothing lies on the floor.
let floor = 0.01
let grid = snrs
let points = { (values: [RatePoint]) -> [(x: Double, y: Double)] in zip(grid, values).map { ($0, max(floor, $1.kbps)) } }
let colours = ["#1f6fb4", "#2ca02c", "#9467bd", "#8c564b"]
var series: [LinePlot.Series] = [
    .init(name: "Shannon, 19.8 kHz band", points: snrs.map { ($0, Channel.shannonKbps($0)) }, color: "#000000"),
    .init(name: "half of Shannon", points: snrs.map { ($0, Channel.shannonKbps($0) / 2) }, color: "#999999"),
    .init(name: "tonenode cable (adaptive), \(bytes / 1024) KiB", points: points(cable), color: "#d62728"),
    .init(name: "tonenode cable, long message (streaming)", points: zip(grid, cable).map { ($0, max(floor, $1.streamingKbps)) },
          color: "#e377c2"),
]
if amodem != nil { series.append(.init(name: "amodem, fastest setting that decodes", points: points(best), color: "#ff7f0e")) }
for (index, profile) in ModemProfile.allCases.enumerated() {
    series.append(.init(name: "tonenode \(profile.rawValue)", points: points(tones[profile]!), color: colours[index % colours.count]))
}
let plot = LinePlot(title: "Net rate against SNR, white noise (rate × share delivered exactly)",
                    xAxis: Axis(title: "SNR in 200 Hz–20 kHz (dB)", lower: grid.first ?? 0, upper: grid.last ?? 90),
                    yAxis: Axis(title: "net rate (kbit/s)", lower: floor, upper: 20_000, scale: .logarithmic),
                    series: series)
do {
    try plot.svg(width: 1000, height: 620).write(toFile: plotPath, atomically: true, encoding: .utf8)
    let png = (plotPath as NSString).deletingPathExtension + ".png"
    if AModem.shell(["rsvg-convert", "-w", "1200", plotPath, "-o", png]) == 0 {
        progress("wrote \(plotPath) and \(png)")
    } else {
        progress("wrote \(plotPath) (no rsvg-convert here: no PNG)")
    }
} catch {
    FileHandle.standardError.write(Data("cable-bench: cannot write \(plotPath): \(error)\n".utf8))
    exit(1)
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
