import Foundation
@testable import ToneDSP
@testable import ToneModem

/// Fixed reports, messages and a measurement whose printed forms the golden
/// tests pin down byte for byte (recorded before the JSON writer replaced
/// three hand-made formatters).
enum GoldenFixtures {
    static let tone = ToneReport(timeSeconds: 1.25, reading: ToneReading(
        frequencyHz: 440.0001220703125, levelDBFS: -6.02, snrDB: 41.5, rmsDBFS: -9.03))
    static let tinyAndHuge = ToneReport(timeSeconds: 0.1 + 0.2, reading: ToneReading(
        frequencyHz: 1e-05, levelDBFS: -0.0, snrDB: 1e16, rmsDBFS: 123456789.125))
    static let noTone = ToneReport(timeSeconds: 2, reading: ToneReading(rmsDBFS: -42.25))
    static let silence = ToneReport(timeSeconds: 3, reading: ToneReading())
    static let invalid = ToneReport(timeSeconds: 4.5, reading: .invalid)
    static let nonFinite = ToneReport(timeSeconds: 5, reading: ToneReading(
        frequencyHz: .nan, levelDBFS: .infinity, snrDB: -.infinity, rmsDBFS: 0))
    static var twoTones: ToneReport {
        var reading = ToneReading(frequencyHz: 440, levelDBFS: -6, snrDB: 30.25, rmsDBFS: -8.5)
        reading.tones = [ToneComponent(frequencyHz: 440, levelDBFS: -6, snrDB: 30.25),
                         ToneComponent(frequencyHz: 880.5, levelDBFS: -12.125, snrDB: .nan)]
        return ToneReport(timeSeconds: 6, reading: reading, channel: 1)
    }
    static var noTones: ToneReport {
        ToneReport(timeSeconds: 7, reading: ToneReading(rmsDBFS: -60))
    }
    static let pitch = ToneReport(timeSeconds: 8, reading: ToneReading(
        frequencyHz: 82.4069, levelDBFS: -12.3, snrDB: 30), pitch: PitchReading(noteName: "E2", midiNote: 40, cents: 0.01))
    static let noPitch = ToneReport(timeSeconds: 9, reading: ToneReading(rmsDBFS: -50), pitch: PitchReading())
    static let sharpPitch = ToneReport(timeSeconds: 10, reading: ToneReading(
        frequencyHz: 277.2, levelDBFS: -3), pitch: PitchReading(noteName: "C#4", midiNote: 61, cents: -.infinity))

    static let reports: [(String, ToneReport)] = [
        ("tone", tone), ("tinyAndHuge", tinyAndHuge), ("noTone", noTone), ("silence", silence),
        ("invalid", invalid), ("nonFinite", nonFinite), ("twoTones", twoTones), ("noTones", noTones),
        ("pitch", pitch), ("noPitch", noPitch), ("sharpPitch", sharpPitch),
    ]

    /// Text that needs every kind of escape: quotes, backslash, slash, control
    /// characters, DEL, the JavaScript line separators and non-ASCII.
    static let awkwardText = "say \"hi\" \\ a/b\n\t\r\u{1}\u{1F}\u{7F}\u{2028}\u{2029} é ✓ 🎵"

    static let message = ModemEvent.message(ModemMessage(
        bytes: Array(awkwardText.utf8), timeSeconds: 12.3456789, profile: .ultrasonicFast, snrDB: 17.25,
        messageID: 0xBEEF, frameCount: 3))
    static let binaryMessage = ModemEvent.message(ModemMessage(
        bytes: [0xFF, 0x00, 0xC3], timeSeconds: 0.5, profile: .audible, snrDB: .nan, messageID: 1, frameCount: 1))
    static let incomplete = ModemEvent.incomplete(IncompleteModemMessage(
        messageID: 0x00AB, timeSeconds: 3.14159265, profile: .ultrasonic, receivedFrames: 2, frameCount: 5))

    static let events: [(String, ModemEvent)] = [
        ("message", message), ("binaryMessage", binaryMessage), ("incomplete", incomplete),
    ]

    /// A short measurement with a few awkward figures.
    static var measurement: ChainMeasurement {
        ChainMeasurement(sampleRateHz: 48000, latencyFrames: 257.15, gainDB: -0.428, toneFrequencyHz: 1000,
                         measuredFrequencyHz: 1000.0001, thdPlusNoiseDB: -47.22, toneGlitches: 2,
                         response: [.init(frequencyHz: 20, gainDB: -0.00001), .init(frequencyHz: 20.5946, gainDB: -0.123456),
                                    .init(frequencyHz: 1000.004, gainDB: -3.00005), .init(frequencyHz: 20000, gainDB: .nan)],
                         sweepStartHz: 20, sweepEndHz: 20000)
    }
    static var brokenMeasurement: ChainMeasurement {
        ChainMeasurement(sampleRateHz: 44100, latencyFrames: .nan, gainDB: -.infinity, toneFrequencyHz: 997,
                         measuredFrequencyHz: .nan, thdPlusNoiseDB: .infinity, response: [],
                         sweepStartHz: 30, sweepEndHz: 15000)
    }
}
