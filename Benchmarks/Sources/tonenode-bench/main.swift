import BenchSupport
// tonenode-bench: ToneNode's hot paths against plain references, in one run.
//
// The machine is shared and noisy, so absolute numbers drift from run to run;
// the ratios, taken between runs made moments apart, are what to compare.
import Foundation
import ToneDSP

let repetitions = 9
/// Seconds each side runs per repetition.
let targetSeconds = 0.08

func progress(_ message: String) {
    FileHandle.standardError.write(Data("… \(message)\n".utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tonenode-bench: \(message)\n".utf8))
    exit(1)
}

let started = ContinuousClock.now
if let index = CommandLine.arguments.firstIndex(of: "notone") {
    let windows = CommandLine.arguments.dropFirst(index + 1).first.flatMap { Int($0) } ?? 30_000
    do { try NoToneRun.run(windows: windows) } catch { fail("\(error)") }
    exit(0)
}
if CommandLine.arguments.contains("measure") {
    // `tonenode-bench measure`: measure's analysis against a plain FFTW pair of the same length, alone.
    let (summary, harmonics, rest, fftSize) = MeasureBenchmark.run(repetitions: 5, targetSeconds: 0.2)
    var table = ResultTable()
    table.addCost("measure analysis: default summary (ChainAnalyzer) vs one FFTW r2c + c2r of \(fftSize)",
                  summary, scale: 1000, unit: "ms")
    table.addCost("measure analysis: default + --what harmonics vs one FFTW r2c + c2r of \(fftSize)",
                  harmonics, scale: 1000, unit: "ms")
    table.addCost("measure analysis: the rest of --what all,midi (levels, noise, imd, 32 MIDI notes) vs one FFTW r2c + c2r of \(fftSize)",
                  rest, scale: 1000, unit: "ms")
    print("## tonenode-bench measure\n\nmachine: \(MachineInfo.summary)\n\n\(table.markdown)\n")
    print("Default plan at 48 kHz (2 s sweep, 1 s tone, 0.5 s max latency); recording x + 0.01·x². "
        + "ratio = ToneNode time ÷ reference time, median over 5 interleaved pairs.")
    exit(0)
}
if CommandLine.arguments.contains("crlb") {
    printCramerRaoTable()
    exit(0)
}
let machine = MachineInfo.summary
let periodFrames = Double(RenderBenchmark.periodFrames)
var table = ResultTable()
var notes: [String] = []

// MARK: - Render path

progress("render")
let render = RenderBenchmark.run(repetitions: repetitions, targetSeconds: targetSeconds)
table.addCost("render: Oscillator.render, 1 kHz @ 48 kHz, 256-frame periods",
              render, scale: 1e9 / periodFrames, unit: "ns/frame")
notes.append("render reference: Float(a * sin(φ)) per sample, Glibc sin, Double φ in radians wrapped at 2π, "
    + "same 256-frame period and output buffer; "
    + String(format: "largest |Δ| between the two over 1000 periods %.1e", Double(RenderBenchmark.largestDifference())))

progress("generator: beep and sweep")
for (kind, label) in [(GeneratorBenchmark.Shot.beep, "beep"), (.sweep, "log sweep")] {
    let comparison = GeneratorBenchmark.run(kind, repetitions: repetitions, targetSeconds: targetSeconds)
    table.addCost("render: ToneGenerator during a \(label) (hold), 256-frame periods", comparison,
                  scale: 1e9 / periodFrames, unit: "ns/frame")
}
notes.append("generator reference: the plain Oscillator (the steady tone alone); the ToneNode side renders the muted "
    + "tone underneath plus the shot's own sine and the crossfade, as `out` does during a beep or sweep")

// MARK: - Worker

for benchmark in [EstimatorBenchmark(sampleRateHz: 48_000, fftSize: 4096, hopFrames: 512),
                  EstimatorBenchmark(sampleRateHz: 96_000, fftSize: 8192, hopFrames: 256)] {
    let n = benchmark.fftSize
    let rateKHz = Int(benchmark.sampleRateHz / 1000)
    progress("estimator N=\(n) @ \(rateKHz) kHz (FFTW measure planning first)")
    let result: EstimatorBenchmark.Result
    do {
        result = try benchmark.run(repetitions: repetitions, targetSeconds: targetSeconds)
    } catch {
        fail("\(error)")
    }
    let comparison = result.comparison
    table.addRate("worker: ToneEstimator.estimate, N=\(n) @ \(rateKHz) kHz", comparison, unit: "analyses/s")
    let required = benchmark.requiredPerSecond
    func share(_ timings: Timings) -> String {
        String(format: "%.2f%% of a core (min %.2f%%)", 100 * required * timings.median, 100 * required * timings.minimum)
    }
    table.add(String(format: "worker live budget: N=%d @ %d kHz, hop %d = %g analyses/s", n, rateKHz, benchmark.hopFrames, required),
              toneNode: share(comparison.toneNode), reference: share(comparison.reference),
              ratio: ratioText(comparison.ratio))
    table.addRate("worker: estimate now vs before issue 3 (cb90cd7, sliding medians), N=\(n) @ \(rateKHz) kHz",
                  result.againstBaseline, unit: "analyses/s")
    let reading = result.reading
    notes.append(String(format: "worker N=%d: estimate read %.4f Hz at %.2f dBFS, SNR %.1f dB",
                        n, reading.frequencyHz ?? .nan, reading.levelDBFS ?? .nan, reading.snrDB ?? .nan))
}
notes.insert("worker input: 1000 Hz sine at -18 dBFS plus seeded Gaussian noise σ 1e-3, 8 windows one hop apart; "
    + "reference: RealFFT(size: N, planning: .measure) — copy the window in, fftwf r2c, |X|² (powerSpectrum)",
    at: notes.count - 2)

progress("estimator looking for 4 tones")
do {
    let (comparison, tonesFound) = try MultiToneBenchmark.run(repetitions: repetitions, targetSeconds: targetSeconds)
    table.addRate("worker: estimate --tones 4 vs --tones 1, two tones present, N=4096 @ 48 kHz",
                  comparison, unit: "analyses/s")
    notes.append("--tones 4: 1 kHz at -18 dBFS and 1035.16 Hz (3 bins up) at -58 dBFS, noise σ 1e-4; "
        + "found \(tonesFound) tones (one FFT, gate and joint fit more per tone found, and one FFT and gate to find no more)")
} catch {
    fail("\(error)")
}

// MARK: - Subnormal input

for flushingOnly in [false, true] {
    progress("estimator on subnormal input" + (flushingOnly ? ", flushing on vs off" : ""))
    do {
        let comparison = try DenormalBenchmark.run(flushingOnly: flushingOnly, repetitions: repetitions,
                                                   targetSeconds: targetSeconds)
        table.addRate(flushingOnly ? "subnormal tail: estimate flushed (worker) vs unflushed"
                                   : "subnormal tail vs ordinary noise tail: estimate, N=4096, flushed",
                      comparison, unit: "analyses/s")
    } catch {
        fail("\(error)")
    }
}
notes.append(String(format: "subnormal input: a %d-frame 1 kHz burst at -18 dBFS, then seeded noise scaled to about 1e-39 "
    + "(%.0f%% of the window's samples subnormal); reference: the same burst, then the same noise at σ 1e-3",
    DenormalBenchmark.burstFrames, 100 * DenormalBenchmark.subnormalShare))

// MARK: - Input capture

progress("input capture")
let clockOverhead = stopwatchOverheadSeconds()
let captureWrite = CaptureBenchmark.runWriteOnly(repetitions: repetitions, targetSeconds: targetSeconds,
                                                 clockOverheadSeconds: clockOverhead)
table.addCost("capture: InputCapture.capture of a 256-frame period",
              captureWrite, scale: 1e9 / periodFrames, unit: "ns/frame")
let captureRoundTrip = CaptureBenchmark.runRoundTrip(repetitions: repetitions, targetSeconds: targetSeconds)
table.addCost("capture + drain: capture, then read the period back",
              captureRoundTrip, scale: 1e9 / periodFrames, unit: "ns/frame")
let ringFrames = InputCapture(capacityFrames: CaptureBenchmark.capacityFrames).frames.capacity
notes.append("capture: ring of \(ringFrames) frames (4 s at 48 kHz, as the engine makes), one thread; "
    + "write-only times batches of \(CaptureBenchmark.batchPeriods) periods and drains between them untimed, "
    + String(format: "less %.0f ns of clock overhead per batch; ", clockOverhead * 1e9)
    + "reference: the same copies into and out of a plain power-of-two array without atomics or gap records")

// MARK: - Accuracy

progress("ToneNode against the Cramér–Rao bound")
let cramerRao = CramerRaoBenchmark()
let cramerRaoCells: [CramerRaoBenchmark.Cell]
do { cramerRaoCells = try cramerRao.run() } catch { fail("\(error)") }

// MARK: - Report

let elapsed = (ContinuousClock.now - started).seconds
print("""
    ## tonenode-bench

    machine: \(machine)

    \(table.markdown)

    ratio = ToneNode time ÷ reference time, the median over \(repetitions) interleaved pairs of runs \
    (about \(Int(targetSeconds * 1000)) ms per side each); above 1 means ToneNode costs more. \
    Cells: median (best run).

    """)
for note in notes { print("- \(note)") }
print("""

    ### ToneNode vs the Cramér–Rao bound

    One real sine at -20 dBFS (random phase) in white Gaussian noise, N = \(cramerRao.fftSize), \
    \(Int(cramerRao.sampleRateHz)) Hz, \(cramerRao.trials) seeded trials per cell. Cell: RMS frequency error ÷ \
    σ_f = (fs/2π)·√(12/(η·N·(N²−1))), and (bias) the mean error ÷ σ_f. With \(cramerRao.trials) trials a cell's \
    ratio scatters by about ±\(Int((100 / (2 * Double(cramerRao.trials)).squareRoot()).rounded())) % and its bias \
    by ±\(String(format: "%.2f", 1 / Double(cramerRao.trials).squareRoot())) (1σ).

    \(cramerRao.markdown(cramerRaoCells))
    """)
print(String(format: "\ntotal %.1f s", elapsed))
