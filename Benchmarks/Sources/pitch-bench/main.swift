import BenchSupport
// pitch-bench: `tonenode analyze --mode pitch` against aubio's `aubiopitch -p yinfft`
// and `-p yin` on the same generated files, same window and hop, in one run.
//
//   swift build -c release && swift run -c release --package-path Benchmarks pitch-bench
//
// Options: --tonenode PATH (default .build/release/tonenode), --window N (4096),
// --hop N (256), --speed-seconds S (60), --keep (keep the generated files).
import Foundation
import ToneAudioFile
import ToneDSP

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("pitch-bench: \(message)\n".utf8))
    exit(1)
}

func progress(_ message: String) {
    FileHandle.standardError.write(Data("… \(message)\n".utf8))
}

var tonenodePath = ".build/release/tonenode"
var window = 4096
var hop = 256
var speedSeconds = 60.0
var keep = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--tonenode":
        guard let value = arguments.popFirst() else { fail("--tonenode needs a path") }
        tonenodePath = value
    case "--window":
        guard let value = arguments.popFirst().flatMap({ Int($0) }) else { fail("--window needs a number") }
        window = value
    case "--hop":
        guard let value = arguments.popFirst().flatMap({ Int($0) }) else { fail("--hop needs a number") }
        hop = value
    case "--speed-seconds":
        guard let value = arguments.popFirst().flatMap({ Double($0) }) else { fail("--speed-seconds needs a number") }
        speedSeconds = value
    case "--keep": keep = true
    default: fail("unknown argument \(argument)")
    }
}
guard FileManager.default.isExecutableFile(atPath: tonenodePath) else {
    fail("no tonenode at \(tonenodePath); run `swift build -c release` first or pass --tonenode PATH")
}

let directory = NSTemporaryDirectory() + "pitch-bench-\(getpid())"
try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { if !keep { try? FileManager.default.removeItem(atPath: directory) } }

progress("generating files in \(directory)")
var cases: [PitchCase]
do { cases = try PitchCase.generate(in: directory) } catch { fail("\(error)") }

// The sox plucks are not exactly at their nominal pitch: measure each file's
// own pitch over a 65536-sample (1.37 s) window from 0.3 s.
do {
    let long = try PitchDetector(PitchDetectorConfiguration(sampleRateHz: 48_000, frameSize: 65_536), planning: .estimate)
    for index in cases.indices where cases[index].category == "sox plucks E2–A4" {
        let samples = try AudioFileReader(path: cases[index].path).readChannel()
        let start = 14_400
        let reading = samples[start..<(start + 65_536)].withUnsafeBufferPointer { long.estimate($0) }
        cases[index].measuredTruthHz = reading.frequencyHz
        if let noisy = cases.firstIndex(where: { $0.name == "noisy " + cases[index].name }) {
            cases[noisy].measuredTruthHz = reading.frequencyHz
        }
    }
} catch { fail("\(error)") }

let detectors: [Detector] = [
    .toneNode(path: tonenodePath, window: window, hop: hop),
    .aubio(method: "yinfft", window: window, hop: hop),
    .aubio(method: "yin", window: window, hop: hop),
]

var table = PitchTable()
let categories = cases.map(\.category).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
for category in categories {
    let members = cases.filter { $0.category == category }
    var row = [category]
    for detector in detectors {
        progress("\(detector.label): \(category)")
        var score = Score()
        for item in members {
            guard let run = detector.run(item.path, scratch: directory + "/out.txt") else {
                fail("\(detector.label) failed on \(item.path)")
            }
            score.add(run.frames, truthHz: item.truthHz, cpuSeconds: run.cpuSeconds, audioSeconds: item.seconds)
        }
        row.append(score.summary)
    }
    table.rows.append(row)
    if category.hasPrefix("sox plucks") {
        var ownRow = [category + ", vs each file's own pitch"]
        for detector in detectors {
            var score = Score()
            for item in members {
                guard let run = detector.run(item.path, scratch: directory + "/out.txt") else { fail("\(detector.label) failed") }
                score.add(run.frames, truthHz: item.measuredTruthHz ?? item.truthHz, cpuSeconds: run.cpuSeconds,
                          audioSeconds: item.seconds)
            }
            ownRow.append(score.summary)
        }
        table.rows.append(ownRow)
    }
}

// Speed on a long file, where start-up costs do not count.
progress("speed: \(speedSeconds) s of sox plucks")
let speedPath: String
do { speedPath = try PitchCase.speedFile(in: directory, seconds: speedSeconds) } catch { fail("\(error)") }
let speedAudioSeconds = Double((try? AudioFileReader(path: speedPath).frameCount) ?? 0) / 48_000
var speedRow = [String(format: "speed: %.0f s of sox plucks, CPU s per s of audio", speedAudioSeconds)]
var cpu: [Double] = []
for detector in detectors {
    // Best of three: the machine is shared.
    let best = (0..<3).compactMap { _ in detector.run(speedPath, scratch: directory + "/out.txt")?.cpuSeconds }.min() ?? .nan
    cpu.append(best)
    speedRow.append(String(format: "%.4f", best / speedAudioSeconds))
}
table.rows.append(speedRow)

// The live worker's pitch path, in process.
var liveRows: [String] = []
for (rate, frameSize, liveHop) in [(48_000.0, 4096, 256), (96_000.0, 8192, 256)] {
    let cost = LiveCost.measure(sampleRateHz: rate, frameSize: frameSize)
    let required = rate / Double(liveHop)
    liveRows.append(String(format: "live worker, pitch: N=%d @ %.0f kHz, hop %d: %.1f µs per window (median of 9), %.0f windows/s needed = %.1f%% of a core",
                           frameSize, rate / 1000, liveHop, cost * 1e6, required, 100 * cost * required))
}

print("pitch-bench: window \(window), hop \(hop), 48 kHz; frames whose window ends 0.1–1.5 s into each 2 s file;")
print("cell: gross errors (> 50 cents off, or no pitch) / median |error| in cents / CPU s per s of audio (child rusage, start-up included)")
print("machine: \(MachineInfo.summary)")
print("")
print(table.markdown(header: ["file set"] + detectors.map(\.label)))
print("")
print(String(format: "speed ratio (aubiopitch yinfft CPU / tonenode CPU): %.2f×; yin / tonenode: %.2f×",
             cpu[1] / cpu[0], cpu[2] / cpu[0]))
liveRows.forEach { print($0) }
