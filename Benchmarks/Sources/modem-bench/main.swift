// modem-bench: ToneNode's modem against ggwave on the same seeded channels, one table in one run.
//
//   swift run -c release --package-path Benchmarks modem-bench [--trials N] [--false-minutes M] [--no-ggwave]
//       [--profiles ultrasonic,audible] [--no-extras]   (extras: other rates and the false-message runs)
//       [--snrs -15,-13,-11] (the noise columns) [--combined DB] (each profile at ±1000 ppm and RT60 0.6 s with
//       white noise at DB, all at once; default: ultrasonic at −11 dB as one of the extras)
import Foundation
import ToneDSP
import ToneModem
import ToneTestSupport

func progress(_ message: String) {
    FileHandle.standardError.write(Data("… \(message)\n".utf8))
}

var trials = 100
var falseMinutes = 5.0
var useGGWave = true
var extras = true
var chosenProfiles = ModemProfile.allCases
var snrs: [Double] = [-15, -13, -11, -9, -7, -5, 0, 5, 10]
var combinedSNR: Double?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--trials": trials = Int(arguments.next() ?? "") ?? trials
    case "--false-minutes": falseMinutes = Double(arguments.next() ?? "") ?? falseMinutes
    case "--no-ggwave": useGGWave = false
    case "--no-extras": extras = false
    case "--snrs":
        snrs = (arguments.next() ?? "").split(separator: ",").compactMap { Double(String($0)) }
    case "--combined": combinedSNR = Double(arguments.next() ?? "")
    case "--profiles":
        chosenProfiles = (arguments.next() ?? "").split(separator: ",").compactMap { ModemProfile(rawValue: String($0)) }
    default:
        FileHandle.standardError.write(Data("modem-bench: error: unknown option \(argument)\n".utf8))
        exit(64)
    }
}

let started = ContinuousClock.now
let rate = 48_000.0
let reverbs: [Double] = [0.3, 0.6]
var rows: [[String]] = []
let header = ["sender", "airtime 32 B", "B/s"] + snrs.map { String(format: "%+g dB", $0) }
    + reverbs.map { String(format: "RT60 %.1f s", $0) } + ["+1000 ppm", "−1000 ppm"]

func percent(_ successes: Int, _ count: Int) -> String {
    String(format: "%.0f%%", 100 * Double(successes) / Double(count))
}

func clockSNR(_ profile: ModemProfile) -> Double {
    profile == .ultrasonicFast || profile == .audibleFast ? 5 : -11
}

do {
    for profile in chosenProfiles {
        let modulator = try ModemModulator(profile: profile, sampleRateHz: rate)
        let airtime = modulator.airtimeSeconds(messageBytes: 32)
        var row = ["tonenode \(profile.rawValue)", String(format: "%.3f s", airtime), String(format: "%.1f", 32 / airtime)]
        for snr in snrs {
            progress("\(profile.rawValue) at \(snr) dB")
            row.append(percent(try modemTrials(profile: profile, sampleRateHz: rate, condition: .noise(snrDB: snr),
                                               trials: trials), trials))
        }
        for rt60 in reverbs {
            progress("\(profile.rawValue) RT60 \(rt60) s")
            row.append(percent(try modemTrials(profile: profile, sampleRateHz: rate, condition: .reverb(rt60Seconds: rt60),
                                               trials: trials), trials))
        }
        for ppm in [1000.0, -1000.0] {
            progress("\(profile.rawValue) \(ppm) ppm")
            row.append(percent(try modemTrials(profile: profile, sampleRateHz: rate,
                                               condition: .clock(ppm: ppm, snrDB: clockSNR(profile)), trials: trials), trials)
                       + String(format: " @%+g dB", clockSNR(profile)))
        }
        rows.append(row)
    }
} catch {
    FileHandle.standardError.write(Data("modem-bench: error: \(error)\n".utf8))
    exit(1)
}

// MARK: - ggwave on the same channels

var ggwaveNote = "ggwave: not measured (--no-ggwave)"
if useGGWave {
    let helper = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ggwave-helper.py").path
    let payload = ModemChannel.randomMessage(seed: 4242)
    if let gg = GGWave.make(helper: helper), let wave = gg.encode(payload) {
        let airtime = Double(wave.count) / GGWave.sampleRateHz
        var row = ["ggwave 0.4.3 ultrasound fastest", String(format: "%.3f s", airtime), String(format: "%.1f", 32 / airtime)]
        func measure(_ condition: Condition, resampled: [Float]? = nil) -> String {
            progress("ggwave \(condition.label)")
            let signals = (0..<trials).map { trial in
                channel(resampled ?? wave, airtimeFrames: wave.count, condition: condition,
                        sampleRateHz: GGWave.sampleRateHz, seed: UInt64(trial + 1))
            }
            return percent(gg.successes(signals, payload: payload), trials)
        }
        for snr in snrs { row.append(measure(.noise(snrDB: snr))) }
        for rt60 in reverbs { row.append(measure(.reverb(rt60Seconds: rt60))) }
        for ppm in [1000.0, -1000.0] {
            let shifted = ModemChannel.clockOffset(wave, epsilon: ppm * 1e-6)
            row.append(measure(.clock(ppm: ppm, snrDB: 10), resampled: shifted) + " @+10 dB")
        }
        rows.append(row)
        ggwaveNote = "ggwave 0.4.3 (pip, in a venv under \(NSTemporaryDirectory())modem-bench-ggwave), protocol 5 "
            + "\"ultrasound fastest\", the same 32-byte payload in every trial, decoded by its Python binding in 1024-sample chunks"
    } else {
        ggwaveNote = "ggwave: could not be installed or run here (pip install ggwave failed); not measured"
    }
}

// MARK: - Noise, room and clock together

var rateRows: [String] = []
do {
    let combined: [(ModemProfile, Double)] = if let combinedSNR { chosenProfiles.map { ($0, combinedSNR) } }
        else if extras && chosenProfiles.contains(.ultrasonic) { [(.ultrasonic, -11)] } else { [] }
    for (profile, snr) in combined {
        // The room and the noise first (the clock in time), then all three.
        let roomAndNoise = try modemTrials(profile: profile, sampleRateHz: rate,
                                           condition: .reverb(rt60Seconds: 0.6, snrDB: snr), trials: trials)
        rateRows.append(String(format: "%@ in RT60 0.6 s with white noise at %+g dB (clocks equal): %@ of %d",
                               profile.rawValue, snr, percent(roomAndNoise, trials), trials))
        for ppm in [1000.0, -1000.0] {
            let condition = Condition.combined(ppm: ppm, rt60Seconds: 0.6, snrDB: snr)
            progress("\(profile.rawValue) \(condition.label)")
            let successes = try modemTrials(profile: profile, sampleRateHz: rate, condition: condition, trials: trials)
            rateRows.append(String(format: "%@ at %+g ppm in RT60 0.6 s with white noise at %+g dB, all at once: %@ of %d",
                                   profile.rawValue, ppm, snr, percent(successes, trials), trials))
        }
    }
} catch {
    FileHandle.standardError.write(Data("modem-bench: error: \(error)\n".utf8))
    exit(1)
}

// MARK: - Other sample rates

if extras { do {
    for profile in chosenProfiles where profile == .ultrasonicFast || profile == .audibleFast {
        progress("\(profile.rawValue) RT60 0.3 s at +5 dB")
        let successes = try modemTrials(profile: profile, sampleRateHz: rate,
                                        condition: .reverb(rt60Seconds: 0.3, snrDB: 5), trials: trials)
        rateRows.append(String(format: "%@ in RT60 0.3 s and white noise at +5 dB together: %@ of %d", profile.rawValue,
                               percent(successes, trials), trials))
    }
    if chosenProfiles.contains(.ultrasonicFast) {
        for sampleRate in [44_100.0, 96_000.0] {
            progress("ultrasonic-fast RT60 0.3 s at \(sampleRate) Hz")
            let successes = try modemTrials(profile: .ultrasonicFast, sampleRateHz: sampleRate,
                                            condition: .reverb(rt60Seconds: 0.3), trials: trials)
            rateRows.append(String(format: "ultrasonic-fast at %.1f kHz, RT60 0.3 s: %@ of %d", sampleRate / 1000,
                                   percent(successes, trials), trials))
        }
        progress("ultrasonic-fast receiver time")
        let quiet = try receiveSeconds(profile: .ultrasonicFast, sampleRateHz: rate, condition: .noise(snrDB: 30), trials: 20)
        let room = try receiveSeconds(profile: .ultrasonicFast, sampleRateHz: rate, condition: .reverb(rt60Seconds: 0.3),
                                      trials: 20)
        rateRows.append(String(format: "ultrasonic-fast receiver, wall time per trial (one message with 0.1–0.3 s of "
                               + "silence before and 0.3 s after, 48 kHz, 20 trials): %.1f ms at +30 dB without a room "
                               + "(plain decoding), %.1f ms in RT60 0.3 s (through the equalizer)", quiet * 1000, room * 1000))
    }
    for sampleRate in [44_100.0, 96_000.0] where chosenProfiles.contains(.ultrasonic) {
        progress("ultrasonic at \(sampleRate) Hz")
        let successes = try modemTrials(profile: .ultrasonic, sampleRateHz: sampleRate, condition: .noise(snrDB: -11),
                                        trials: trials)
        rateRows.append(String(format: "ultrasonic at %.1f kHz, −11 dB: %@ of %d", sampleRate / 1000,
                               percent(successes, trials), trials))
    }
} catch {
    FileHandle.standardError.write(Data("modem-bench: error: \(error)\n".utf8))
    exit(1)
} }

// MARK: - False messages

var falseRows: [String] = []
if extras { do {
    let blockSeconds = 10.0
    let blocks = max(1, Int(falseMinutes * 60 / blockSeconds))
    for kind in ["white noise", "pink noise", "music-like", "silence"] {
        progress("false messages: \(kind), \(falseMinutes) min")
        let receiver = try ModemReceiver(sampleRateHz: rate)
        var delivered = 0, incomplete = 0
        for block in 0..<blocks {
            let seed = UInt64(block + 1)
            let count = Int(blockSeconds * rate)
            var signal: [Float]
            switch kind {
            case "white noise":
                var random = SeededRandom(seed: seed)
                signal = (0..<count).map { _ in Float(0.1 * random.gaussian()) }
            case "pink noise":
                var pink = PinkNoise(seed: seed)
                signal = (0..<count).map { _ in Float(0.03 * pink.next()) }
            case "music-like":
                signal = ModemChannel.musicLike(seconds: blockSeconds, sampleRateHz: rate, seed: seed)
            default:
                signal = [Float](repeating: 0, count: count)
            }
            for event in receiver.push(signal) {
                if case .message = event { delivered += 1 } else { incomplete += 1 }
            }
        }
        for event in receiver.finish() {
            if case .message = event { delivered += 1 } else { incomplete += 1 }
        }
        falseRows.append(String(format: "%@, %.0f min, all four profiles listening: %d messages delivered, "
            + "%d incomplete reported, %d preambles rejected by CRC/header", kind, Double(blocks) * blockSeconds / 60,
            delivered, incomplete, receiver.framesRejected))
    }
} catch {
    FileHandle.standardError.write(Data("modem-bench: error: \(error)\n".utf8))
    exit(1)
} }

// MARK: - Report

print("## modem-bench\n")
print("success = the one 32-byte message sent is delivered exactly, \(trials) seeded trials per cell, 48 kHz, "
    + "SNR full-band (mean signal power over the transmission against white noise over 0…fs/2)\n")
print("| " + header.joined(separator: " | ") + " |")
print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
for row in rows { print("| " + row.joined(separator: " | ") + " |") }
print("")
print("- reverb: direct path plus exponentially decaying Gaussian noise with that RT60, reverberant energy = direct "
    + "energy, and white noise at +30 dB")
print("- clock: the sender's clock ±1000 ppm against the receiver's (windowed-sinc resampling), at the SNR shown")
print("- \(ggwaveNote)")
for line in rateRows { print("- \(line)") }
for line in falseRows { print("- \(line)") }
print(String(format: "\ntotal %.0f s", (ContinuousClock.now - started).seconds))
