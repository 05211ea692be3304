import EndToEndSupport
import Foundation
import Testing

/// Bad input to the analyzer plugin in the lilv host (`lv2host.c`): rates far
/// from 48 kHz, blocks of one frame, NaN and ±Inf, a host whose worker never
/// runs. The audio passes bit for bit (lv2host exits 2 otherwise), and no
/// port says anything false: every reading marked valid is the tone's
/// frequency within its own σ (five of them, and float rounding).
@Suite("LV2 analyzer under bad input", .enabled(if: LV2Bundle.missing == nil))
struct LV2BadInputTests {
    /// The readings `lv2host` printed, after checking it exited 0 (audio bit for bit).
    static func readings(_ file: String, _ arguments: [String]) throws -> [HostReading] {
        let result = try LV2Bundle.runHost(LV2Bundle.analyzer, file, arguments)
        #expect(result.status == 0, "lv2host \(arguments): \(result.stderr)")
        return result.stdoutLines.compactMap(HostReading.init)
    }

    /// Whether a valid reading is of `frequencyHz`, within five of its own σ (plus float rounding).
    static func isTrue(_ reading: HostReading, frequencyHz: Double) -> Bool {
        !reading.valid || abs(reading.frequencyHz - frequencyHz) <= 5 * reading.sigmaHz + frequencyHz * 1e-6
    }

    @Test("8 kHz and 384 kHz with a burst of NaN and ±Inf: audio bit for bit, valid readings true, a reading again after the burst",
          arguments: [(8000, "1"), (384_000, "4096")])
    func rates(rate: Int, maxBlock: String) throws {
        let seconds = 3.0
        let burstStart = Int(1.2 * Double(rate)), burstFrames = rate / 10
        let file = try LV2Bundle.toneFile(rate: rate, frequencyHz: 440, seconds: seconds, seed: 11) { samples in
            for index in burstStart..<(burstStart + burstFrames) {
                samples[index] = [Float.nan, .infinity, -.infinity][index % 3]
            }
        }
        defer { try? FileManager.default.removeItem(atPath: file) }
        let readings = try Self.readings(file, ["--seed", "5", "--max-block", maxBlock])
        let valid = readings.filter(\.valid)
        #expect(!valid.isEmpty, "no valid reading at \(rate) Hz")
        let false_ = readings.filter { !Self.isTrue($0, frequencyHz: 440) }
        #expect(false_.isEmpty, "readings off the tone by more than 5σ at \(rate) Hz: \(false_.prefix(5))")
        #expect(valid.contains { $0.frames > burstStart + burstFrames }, "no valid reading after the burst at \(rate) Hz")
        #expect(valid.allSatisfy { $0.note == 69 && $0.frequencyHz.isFinite && $0.levelDBFS.isFinite })
    }

    @Test("a host whose worker never runs: audio bit for bit, and never a reading (no port says a tone is there)")
    func workerNeverRuns() throws {
        let file = try LV2Bundle.toneFile(rate: 48000, frequencyHz: 440, seconds: 2, seed: 12)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let readings = try Self.readings(file, ["--seed", "6", "--worker-never-runs"])
        #expect(!readings.isEmpty, "lv2host printed no reading line")
        #expect(readings.allSatisfy { !$0.valid && $0.note == -1 }, "\(readings.prefix(5))")
    }

    @Test("a host whose worker stops after 1 s: the reading is withdrawn within a second of audio, and the audio still passes bit for bit")
    func workerStops() throws {
        let rate = 48000
        let file = try LV2Bundle.toneFile(rate: rate, frequencyHz: 440, seconds: 3, seed: 13)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let readings = try Self.readings(file, ["--seed", "7", "--max-block", "512", "--worker-stops-after", "\(rate)"])
        #expect(readings.contains { $0.valid && $0.frames <= rate }, "no reading before the worker stopped")
        let withdrawn = readings.first { !$0.valid && $0.frames > rate }
        #expect(withdrawn.map { $0.frames <= 2 * rate } == true, "a stale reading stayed on the outputs: \(readings.suffix(3))")
        #expect(readings.last.map { !$0.valid && $0.note == -1 } == true, "\(readings.suffix(3))")
        #expect(readings.allSatisfy { Self.isTrue($0, frequencyHz: 440) })
    }
}
