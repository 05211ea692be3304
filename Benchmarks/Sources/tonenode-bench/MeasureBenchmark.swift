import Foundation
import ToneDSP
import ToneTestSupport

/// `measure`'s analysis (off the JACK thread, after the recording) against a
/// plain FFTW reference of the same length: one double-precision r2c and one
/// c2r of the deconvolution's FFT size (what any sweep deconvolution costs at
/// the least). The ToneNode side: the default summary (`ChainAnalyzer`:
/// deconvolution, latency, response, tone fit), the default plus
/// `--what harmonics` (`HarmonicAnalyzer` on the same deconvolution), and
/// the rest of `--what all,midi` (levels, noise, imd, 32 MIDI notes) on a
/// recording of that plan.
enum MeasureBenchmark {
    static func signal() -> MeasurementSignal {
        MeasurementSignal(plan: MeasurementSignal.Plan(sampleRateHz: 48_000))
    }

    /// The plan of `measure --what all,midi` at 48 kHz (its sweep, and so the reference's size, is the default's).
    static func fullSignal() -> MeasurementSignal {
        var plan = MeasurementSignal.Plan(sampleRateHz: 48_000)
        plan.levelStepsDBFS = LevelSweepAnalyzer.defaultStepsDBFS
        plan.noiseSeconds = 1
        plan.imdSeconds = 1
        plan.midiNotes = 32
        return MeasurementSignal(plan: plan)
    }

    static func run(repetitions: Int, targetSeconds: Double)
        -> (summary: Comparison, harmonics: Comparison, rest: Comparison, fftSize: Int) {
        let signal = signal()
        // A chain with distortion: x + 0.01·x² (the analysis does the same work on any recording).
        var recording = signal.stimulus.map { $0 + 0.01 * $0 * $0 }
        recording += [Float](repeating: 0, count: signal.recordingFrames - recording.count)
        let fftSize = DoubleFFT.size(atLeast: 2 * signal.sweep.frames + signal.maxLatencyFrames)
        guard let fft = DoubleFFT(size: fftSize) else { fatalError("FFTW could not plan \(fftSize)") }
        let input = (0..<fftSize).map { Double($0 < recording.count ? recording[$0] : 0) }
        let reference: Workload = { iterations in
            stopwatch {
                var checksum = 0.0
                for _ in 0..<iterations {
                    for index in 0..<fftSize { fft.real[index] = input[index] }
                    fft.forward()
                    fft.inverse()
                    checksum += fft.real[1]
                }
                return checksum
            }
        }
        let summary: Workload = { iterations in
            stopwatch {
                var checksum = 0.0
                for _ in 0..<iterations {
                    let m = recording.withUnsafeBufferPointer { try? ChainAnalyzer.analyze(signal, recording: $0) }
                    checksum += m?.latencyFrames ?? 0
                }
                return checksum
            }
        }
        let withHarmonics: Workload = { iterations in
            stopwatch {
                var checksum = 0.0
                for _ in 0..<iterations {
                    recording.withUnsafeBufferPointer { buffer in
                        guard let deconvolution = try? SweepDeconvolution(signal, recording: buffer),
                              let m = try? ChainAnalyzer.analyze(signal, recording: buffer, deconvolution: deconvolution) else { return }
                        let h = HarmonicAnalyzer.analyze(signal, deconvolution: deconvolution, latencyFrames: m.latencyFrames)
                        checksum += h.thd.first?.thdDB ?? 0
                    }
                }
                return checksum
            }
        }
        // The full plan's recording: the same chain, each MIDI note answered 300.5 frames late.
        let full = fullSignal()
        var fullRecording = full.stimulus.map { $0 + 0.01 * $0 * $0 }
        fullRecording += [Float](repeating: 0, count: full.recordingFrames - fullRecording.count)
        let burst = RampBurst()
        for noteOn in full.midiNoteOnFrames {
            for n in 0..<Int(burst.lengthFrames) + 2 { fullRecording[noteOn + 300 + n] += burst.value(framesSinceOnset: Double(n) - 0.5) }
        }
        // Every analysis must succeed on this recording, or the timing means nothing.
        fullRecording.withUnsafeBufferPointer { buffer in
            guard (try? LevelSweepAnalyzer.analyze(full, recording: buffer, latencyFrames: 0)) != nil,
                  (try? NoiseAnalyzer.analyze(full, recording: buffer, latencyFrames: 0)) != nil,
                  (try? IntermodulationAnalyzer.analyze(full, recording: buffer, latencyFrames: 0)) != nil,
                  let midi = try? MIDILatencyAnalyzer.analyze(full, recording: buffer), midi.notesAnswered == 32,
                  abs((midi.medianFrames ?? 0) - 300.5) < 0.1 else { fatalError("an analysis of the full plan failed") }
        }
        let rest: Workload = { iterations in
            stopwatch {
                var checksum = 0.0
                for _ in 0..<iterations {
                    fullRecording.withUnsafeBufferPointer { buffer in
                        let levels = try? LevelSweepAnalyzer.analyze(full, recording: buffer, latencyFrames: 0)
                        let noise = try? NoiseAnalyzer.analyze(full, recording: buffer, latencyFrames: 0)
                        let imd = try? IntermodulationAnalyzer.analyze(full, recording: buffer, latencyFrames: 0)
                        let midi = try? MIDILatencyAnalyzer.analyze(full, recording: buffer)
                        checksum += (levels?.points.first?.gainDB ?? 0) + (noise?.dynamicRangeDB ?? 0)
                            + (imd?.smpteDB ?? 0) + (midi?.medianFrames ?? 0)
                    }
                }
                return checksum
            }
        }
        return (compare(repetitions: repetitions, targetSeconds: targetSeconds, toneNode: summary, reference: reference),
                compare(repetitions: repetitions, targetSeconds: targetSeconds, toneNode: withHarmonics, reference: reference),
                compare(repetitions: repetitions, targetSeconds: targetSeconds, toneNode: rest, reference: reference),
                fftSize)
    }
}
