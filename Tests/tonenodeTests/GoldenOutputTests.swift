import Foundation
import Testing
import ToneDSP
@testable import tonenode
@testable import ToneCommandLine

/// Every JSON (and message) line the formatters print for fixed inputs, byte
/// for byte, as recorded from the formatters before they shared `JSONLine`.
/// A change here is a change of the output scripts read.
@Suite("Output lines, byte for byte")
struct GoldenOutputTests {
    /// The recorded lines, keyed by what printed them.
    static let recorded: [(String, String)] = [
        ("json tone", "{\"time_s\":1.25,\"freq_hz\":440.0001220703125,\"level_dbfs\":-6.02,\"snr_db\":41.5,\"rms_dbfs\":-9.03,\"invalid\":false}"),
        ("json ch tone", "{\"time_s\":1.25,\"channel\":2,\"freq_hz\":440.0001220703125,\"level_dbfs\":-6.02,\"snr_db\":41.5,\"rms_dbfs\":-9.03,\"invalid\":false}"),
        ("json tones tone", "{\"time_s\":1.25,\"channel\":3,\"freq_hz\":440.0001220703125,\"level_dbfs\":-6.02,\"snr_db\":41.5,\"rms_dbfs\":-9.03,\"invalid\":false,\"tones\":[]}"),
        ("json tinyAndHuge", "{\"time_s\":0.30000000000000004,\"freq_hz\":1e-05,\"level_dbfs\":-0.0,\"snr_db\":1e+16,\"rms_dbfs\":123456789.125,\"invalid\":false}"),
        ("json ch tinyAndHuge", "{\"time_s\":0.30000000000000004,\"channel\":2,\"freq_hz\":1e-05,\"level_dbfs\":-0.0,\"snr_db\":1e+16,\"rms_dbfs\":123456789.125,\"invalid\":false}"),
        ("json tones tinyAndHuge", "{\"time_s\":0.30000000000000004,\"channel\":3,\"freq_hz\":1e-05,\"level_dbfs\":-0.0,\"snr_db\":1e+16,\"rms_dbfs\":123456789.125,\"invalid\":false,\"tones\":[]}"),
        ("json noTone", "{\"time_s\":2.0,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":-42.25,\"invalid\":false}"),
        ("json ch noTone", "{\"time_s\":2.0,\"channel\":2,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":-42.25,\"invalid\":false}"),
        ("json tones noTone", "{\"time_s\":2.0,\"channel\":3,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":-42.25,\"invalid\":false,\"tones\":[]}"),
        ("json silence", "{\"time_s\":3.0,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":null,\"invalid\":false}"),
        ("json ch silence", "{\"time_s\":3.0,\"channel\":2,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":null,\"invalid\":false}"),
        ("json tones silence", "{\"time_s\":3.0,\"channel\":3,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":null,\"invalid\":false,\"tones\":[]}"),
        ("json invalid", "{\"time_s\":4.5,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":null,\"invalid\":true}"),
        ("json ch invalid", "{\"time_s\":4.5,\"channel\":2,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":null,\"invalid\":true}"),
        ("json tones invalid", "{\"time_s\":4.5,\"channel\":3,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":null,\"invalid\":true,\"tones\":[]}"),
        ("json nonFinite", "{\"time_s\":5.0,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":0.0,\"invalid\":false}"),
        ("json ch nonFinite", "{\"time_s\":5.0,\"channel\":2,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":0.0,\"invalid\":false}"),
        ("json tones nonFinite", "{\"time_s\":5.0,\"channel\":3,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":0.0,\"invalid\":false,\"tones\":[]}"),
        ("json twoTones", "{\"time_s\":6.0,\"freq_hz\":440.0,\"level_dbfs\":-6.0,\"snr_db\":30.25,\"rms_dbfs\":-8.5,\"invalid\":false}"),
        ("json ch twoTones", "{\"time_s\":6.0,\"channel\":2,\"freq_hz\":440.0,\"level_dbfs\":-6.0,\"snr_db\":30.25,\"rms_dbfs\":-8.5,\"invalid\":false}"),
        ("json tones twoTones", "{\"time_s\":6.0,\"channel\":3,\"freq_hz\":440.0,\"level_dbfs\":-6.0,\"snr_db\":30.25,\"rms_dbfs\":-8.5,\"invalid\":false,\"tones\":[{\"freq_hz\":440.0,\"level_dbfs\":-6.0,\"snr_db\":30.25},{\"freq_hz\":880.5,\"level_dbfs\":-12.125,\"snr_db\":null}]}"),
        ("json noTones", "{\"time_s\":7.0,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":-60.0,\"invalid\":false}"),
        ("json ch noTones", "{\"time_s\":7.0,\"channel\":2,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":-60.0,\"invalid\":false}"),
        ("json tones noTones", "{\"time_s\":7.0,\"channel\":3,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":-60.0,\"invalid\":false,\"tones\":[]}"),
        ("json pitch", "{\"time_s\":8.0,\"freq_hz\":82.4069,\"level_dbfs\":-12.3,\"snr_db\":30.0,\"rms_dbfs\":null,\"invalid\":false,\"note\":\"E2\",\"cents\":0.01}"),
        ("json ch pitch", "{\"time_s\":8.0,\"channel\":2,\"freq_hz\":82.4069,\"level_dbfs\":-12.3,\"snr_db\":30.0,\"rms_dbfs\":null,\"invalid\":false,\"note\":\"E2\",\"cents\":0.01}"),
        ("json tones pitch", "{\"time_s\":8.0,\"channel\":3,\"freq_hz\":82.4069,\"level_dbfs\":-12.3,\"snr_db\":30.0,\"rms_dbfs\":null,\"invalid\":false,\"tones\":[],\"note\":\"E2\",\"cents\":0.01}"),
        ("json noPitch", "{\"time_s\":9.0,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":-50.0,\"invalid\":false,\"note\":null,\"cents\":null}"),
        ("json ch noPitch", "{\"time_s\":9.0,\"channel\":2,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":-50.0,\"invalid\":false,\"note\":null,\"cents\":null}"),
        ("json tones noPitch", "{\"time_s\":9.0,\"channel\":3,\"freq_hz\":null,\"level_dbfs\":null,\"snr_db\":null,\"rms_dbfs\":-50.0,\"invalid\":false,\"tones\":[],\"note\":null,\"cents\":null}"),
        ("json sharpPitch", "{\"time_s\":10.0,\"freq_hz\":277.2,\"level_dbfs\":-3.0,\"snr_db\":null,\"rms_dbfs\":null,\"invalid\":false,\"note\":\"C#4\",\"cents\":null}"),
        ("json ch sharpPitch", "{\"time_s\":10.0,\"channel\":2,\"freq_hz\":277.2,\"level_dbfs\":-3.0,\"snr_db\":null,\"rms_dbfs\":null,\"invalid\":false,\"note\":\"C#4\",\"cents\":null}"),
        ("json tones sharpPitch", "{\"time_s\":10.0,\"channel\":3,\"freq_hz\":277.2,\"level_dbfs\":-3.0,\"snr_db\":null,\"rms_dbfs\":null,\"invalid\":false,\"tones\":[],\"note\":\"C#4\",\"cents\":null}"),
        ("json message", "{\"time_s\":12.3457,\"text\":\"say \\\"hi\\\" \\\\ a/b\\n\\t\\r\\u0001\\u001f\\u007f\\u2028\\u2029 é ✓ 🎵\",\"base64\":\"c2F5ICJoaSIgXCBhL2IKCQ0BH3/igKjigKkgw6kg4pyTIPCfjrU=\",\"profile\":\"ultrasonic-fast\",\"snr_db\":17.2500,\"frames\":3}"),
        ("json offset message", "{\"time_s\":112.3457,\"text\":\"say \\\"hi\\\" \\\\ a/b\\n\\t\\r\\u0001\\u001f\\u007f\\u2028\\u2029 é ✓ 🎵\",\"base64\":\"c2F5ICJoaSIgXCBhL2IKCQ0BH3/igKjigKkgw6kg4pyTIPCfjrU=\",\"profile\":\"ultrasonic-fast\",\"snr_db\":17.2500,\"frames\":3}"),
        ("human message", "    12.346 s  ultrasonic-fast  snr  17.2 dB  say \"hi\" \\ a/b\\n\\t\\r\\u0001\\u001f\\u007f\u{2028}\u{2029} é ✓ 🎵"),
        ("json binaryMessage", "{\"time_s\":0.5000,\"base64\":\"/wDD\",\"profile\":\"audible\",\"snr_db\":null,\"frames\":1}"),
        ("json offset binaryMessage", "{\"time_s\":100.5001,\"base64\":\"/wDD\",\"profile\":\"audible\",\"snr_db\":null,\"frames\":1}"),
        ("human binaryMessage", "     0.500 s  audible  snr   nan dB  base64:/wDD"),
        ("json incomplete", "{\"time_s\":3.1416,\"incomplete\":true,\"profile\":\"ultrasonic\",\"frames_received\":2,\"frames\":5,\"message_id\":171}"),
        ("json offset incomplete", "{\"time_s\":103.1416,\"incomplete\":true,\"profile\":\"ultrasonic\",\"frames_received\":2,\"frames\":5,\"message_id\":171}"),
        ("human incomplete", "     3.142 s  ultrasonic  incomplete: 2 of 5 frames arrived (message 00ab), not delivered"),
        ("json ch message", "{\"channel\":2,\"time_s\":12.3457,\"text\":\"say \\\"hi\\\" \\\\ a/b\\n\\t\\r\\u0001\\u001f\\u007f\\u2028\\u2029 é ✓ 🎵\",\"base64\":\"c2F5ICJoaSIgXCBhL2IKCQ0BH3/igKjigKkgw6kg4pyTIPCfjrU=\",\"profile\":\"ultrasonic-fast\",\"snr_db\":17.2500,\"frames\":3}"),
        ("human ch message", "[in_2]     12.346 s  ultrasonic-fast  snr  17.2 dB  say \"hi\" \\ a/b\\n\\t\\r\\u0001\\u001f\\u007f\u{2028}\u{2029} é ✓ 🎵"),
        ("json ch binaryMessage", "{\"channel\":2,\"time_s\":0.5000,\"base64\":\"/wDD\",\"profile\":\"audible\",\"snr_db\":null,\"frames\":1}"),
        ("human ch binaryMessage", "[in_2]      0.500 s  audible  snr   nan dB  base64:/wDD"),
        ("json ch incomplete", "{\"channel\":2,\"time_s\":3.1416,\"incomplete\":true,\"profile\":\"ultrasonic\",\"frames_received\":2,\"frames\":5,\"message_id\":171}"),
        ("human ch incomplete", "[in_2]      3.142 s  ultrasonic  incomplete: 2 of 5 frames arrived (message 00ab), not delivered"),
        // The one deliberate change: `client` was escaped by JSONSerialization (`a\\/b`, DEL and U+2028/9
        // raw); it is now escaped as every other string. Both decode to the same name; JACK names on
        // Linux hold none of these characters. Recorded before: "{\"client\":\"say \\\"hi\\\" \\\\ a\\/b\\n\\t\\r\\u0001\\u001f\u{7F}\u{2028}\u{2029} é ✓ 🎵\",…"
        ("measure", "{\"client\":\"say \\\"hi\\\" \\\\ a/b\\n\\t\\r\\u0001\\u001f\\u007f\\u2028\\u2029 é ✓ 🎵\",\"sample_rate_hz\":48000.0,\"period_frames\":256,\"latency_frames\":257.15,\"latency_ms\":5.357291666666667,\"gain_db\":-0.428,\"tone_hz\":1000.0,\"measured_hz\":1000.0001,\"frequency_shift_hz\":9.999999997489795e-05,\"thd_n_db\":-47.22,\"thd_n_percent\":0.4355118736855688,\"sweep_start_hz\":20.0,\"sweep_end_hz\":20000.0,\"tone_glitches\":2,\"xruns\":1,\"response\":[{\"hz\":20.0,\"db\":0.0},{\"hz\":20.59,\"db\":-0.1235},{\"hz\":1000.0,\"db\":-3.0001},{\"hz\":20000.0,\"db\":null}]}"),
        ("measure plain", "{\"client\":\"tonenode-measure\",\"sample_rate_hz\":48000.0,\"period_frames\":64,\"latency_frames\":257.15,\"latency_ms\":5.357291666666667,\"gain_db\":-0.428,\"tone_hz\":1000.0,\"measured_hz\":1000.0001,\"frequency_shift_hz\":9.999999997489795e-05,\"thd_n_db\":-47.22,\"thd_n_percent\":0.4355118736855688,\"sweep_start_hz\":20.0,\"sweep_end_hz\":20000.0,\"tone_glitches\":2,\"xruns\":0,\"response\":[{\"hz\":20.0,\"db\":0.0},{\"hz\":20.59,\"db\":-0.1235},{\"hz\":1000.0,\"db\":-3.0001},{\"hz\":20000.0,\"db\":null}]}"),
        ("measure broken", "{\"client\":\"\",\"sample_rate_hz\":44100.0,\"period_frames\":1024,\"latency_frames\":null,\"latency_ms\":null,\"gain_db\":null,\"tone_hz\":997.0,\"measured_hz\":null,\"frequency_shift_hz\":null,\"thd_n_db\":null,\"thd_n_percent\":null,\"sweep_start_hz\":30.0,\"sweep_end_hz\":15000.0,\"tone_glitches\":0,\"xruns\":0,\"response\":[]}"),
    ]

    /// What the formatters print now, keyed as `recorded`.
    static func current() -> [(String, String)] {
        var out: [(String, String)] = []
        for (name, report) in GoldenFixtures.reports {
            out.append(("json " + name, ReportFormatter.json(report)))
            out.append(("json ch " + name, ReportFormatter.json(report, channel: 2)))
            out.append(("json tones " + name, ReportFormatter.json(report, channel: 3, listTones: true)))
        }
        for (name, event) in GoldenFixtures.events {
            out.append(("json " + name, MessageFormatter.json(event)))
            out.append(("json offset " + name, MessageFormatter.json(event, timeOffsetSeconds: 100.00005)))
            out.append(("human " + name, MessageFormatter.human(event)))
        }
        for (name, event) in GoldenFixtures.events {
            out.append(("json ch " + name, MessageFormatter.json(event, channel: 2)))
            out.append(("human ch " + name, MessageFormatter.human(event, channel: 2)))
        }
        out.append(("measure", MeasureFormatter.json(GoldenFixtures.measurement, clientName: GoldenFixtures.awkwardText,
                                                     periodFrames: 256, xruns: 1)))
        out.append(("measure plain", MeasureFormatter.json(GoldenFixtures.measurement, clientName: "tonenode-measure",
                                                           periodFrames: 64, xruns: 0)))
        out.append(("measure broken", MeasureFormatter.json(GoldenFixtures.brokenMeasurement, clientName: "",
                                                            periodFrames: 1024, xruns: 0)))
        return out
    }

    @Test func everyLineAsRecorded() {
        let current = Self.current()
        #expect(current.map(\.0) == Self.recorded.map(\.0))
        for ((name, line), (_, expected)) in zip(current, Self.recorded) {
            #expect(line == expected, "\(name)")
        }
    }

    @Test func everyJSONLineParses() throws {
        for (name, line) in Self.current() where !name.hasPrefix("human") {
            #expect(throws: Never.self, "\(name)") { try JSONSerialization.jsonObject(with: Data(line.utf8)) }
        }
    }
}
