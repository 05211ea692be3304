import Foundation
import Testing
import ToneTestSupport
@testable import ToneDSP

@Suite("Noise, dynamic range and hum (AES17)")
struct NoiseAnalyzerTests {
    static func signal() -> MeasurementSignal {
        var plan = ChainAnalyzerTests.signal().plan
        plan.noiseSeconds = 1
        return MeasurementSignal(plan: plan)
    }

    static func analyze(_ signal: MeasurementSignal, _ recording: [Float]) throws -> NoiseMeasurement {
        try recording.withUnsafeBufferPointer { try NoiseAnalyzer.analyze(signal, recording: $0, latencyFrames: 0) }
    }

    /// Band power of white noise of RMS `rms` in dBFS, unweighted or A-weighted, 20 Hz…20 kHz at 48 kHz.
    static func expectedWhiteDBFS(rms: Double, weighted: Bool) -> Double {
        // White noise: variance spread evenly over 0…24 kHz.
        let steps = 20000
        var fraction = 0.0
        for i in 0..<steps {
            let f = 20 + (20000 - 20) * (Double(i) + 0.5) / Double(steps)
            fraction += (weighted ? NoiseAnalyzer.aWeightingPower(f) : 1) * (20000 - 20) / Double(steps) / 24000
        }
        return 10 * log10(rms * rms * fraction / 0.5)
    }

    @Test("A-weighting: 0 dB at 1 kHz, the IEC 61672 table at 100 Hz and 10 kHz")
    func aWeighting() {
        #expect(abs(10 * log10(NoiseAnalyzer.aWeightingPower(1000))) < 0.01)
        #expect(abs(10 * log10(NoiseAnalyzer.aWeightingPower(100)) + 19.1) < 0.1)
        #expect(abs(10 * log10(NoiseAnalyzer.aWeightingPower(10000)) + 2.5) < 0.1)
    }

    @Test("white noise at −100 dBFS with 50 Hz hum: noise (both weightings), SNR, hum lines, DR")
    func noiseAndHum() throws {
        let signal = Self.signal()
        let rms = 1e-5 / 2.0.squareRoot()   // −100 dBFS
        var recording = SyntheticChain.addNoise(SyntheticChain.padded(signal.stimulus, to: signal.recordingFrames),
                                                rms: rms, seed: 16)
        // Hum: 50 Hz at −90 dBFS and its third harmonic at −100 dBFS, everywhere.
        for n in recording.indices {
            let t = Double(n) / 48000
            recording[n] += Float(Decibels.amplitude(dbfs: -90) * sin(2 * Double.pi * 50 * t + 0.3)
                                  + Decibels.amplitude(dbfs: -100) * sin(2 * Double.pi * 150 * t))
        }
        let result = try Self.analyze(signal, recording)
        let unweighted = Self.expectedWhiteDBFS(rms: rms, weighted: false)
        let weighted = Self.expectedWhiteDBFS(rms: rms, weighted: true)
        // The hum adds to the unweighted noise: −90 and −100 dBFS lines.
        let withHum = 10 * log10(pow(10, unweighted / 10) + pow(10, -9.0) + pow(10, -10.0))
        #expect(abs(result.noiseDBFS - withHum) < 0.2, "noise \(result.noiseDBFS) dBFS, expected \(withHum)")
        let humA = pow(10, -9.0) * NoiseAnalyzer.aWeightingPower(50) + pow(10, -10.0) * NoiseAnalyzer.aWeightingPower(150)
        let weightedWithHum = 10 * log10(pow(10, weighted / 10) + humA)
        #expect(abs(result.noiseAWeightedDBFS - weightedWithHum) < 0.2, "A-weighted \(result.noiseAWeightedDBFS), expected \(weightedWithHum)")
        #expect(abs(result.snrDB + result.noiseDBFS) < 1e-12)
        let fifty = try #require(result.humLines.first { $0.frequencyHz == 50 })
        #expect(abs(fifty.levelDBFS + 90) < 0.1, "50 Hz at \(fifty.levelDBFS) dBFS")
        let third = try #require(result.humLines.first { $0.frequencyHz == 150 && $0.mainsHz == 50 })
        #expect(abs(third.levelDBFS + 100) < 0.3, "150 Hz at \(third.levelDBFS) dBFS")
        #expect(!result.humLines.contains { $0.mainsHz == 60 && $0.harmonic != 5 && $0.harmonic != 15 })
        // DR: the −60 dBFS tone's residual is the same noise and hum, A-weighted.
        #expect(abs(result.dynamicRangeDB + weightedWithHum) < 0.3, "DR \(result.dynamicRangeDB) dB")
    }

    @Test("a float32 wire: dynamic range and SNR limited only by float rounding (above 140 dB)")
    func floatFloor() throws {
        let signal = Self.signal()
        let result = try Self.analyze(signal, SyntheticChain.padded(signal.stimulus, to: signal.recordingFrames))
        #expect(result.dynamicRangeDB > 140, "DR \(result.dynamicRangeDB) dB")
        #expect(result.snrDB > 300)
        #expect(result.humLines.isEmpty)
    }
}
