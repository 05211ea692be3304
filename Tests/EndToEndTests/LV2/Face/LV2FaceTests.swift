import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

// The plugins' faces (Sources/ToneLV2UI) as a person sees them: jalv.gtk3
// shows each through suil on a private X server (Xvfb) while the plugin runs
// on a private real-time JACK server. What a face drew is read from the face's
// own report (FaceHost.drawn), and held against the plugin's control outputs
// as jalv prints them; the screenshots are kept (`artifacts`).

extension JackServerTests {
    @Suite("LV2 faces in jalv.gtk3 under Xvfb",
           .enabled(if: LV2Bundle.missing == nil && FaceHost.missing == nil && JalvHost.missing([]) == nil
                    && !LV2Bundle.isSanitized))
    struct LV2FaceTests {
        /// Where the screenshots are kept: $TONENODE_TEST_ARTIFACTS, else .build/test-artifacts.
        static let artifacts: String = {
            let directory = ProcessInfo.processInfo.environment["TONENODE_TEST_ARTIFACTS"]
                ?? LV2Bundle.packageRoot + "/.build/test-artifacts"
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return directory
        }()

        /// The note's name as a tuner spells it (MIDI 69 is A4), spelled here, not by the face.
        static func noteName(_ midi: Double) -> String {
            let names = ["C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B"]
            let note = Int(midi.rounded())
            return names[note % 12] + String(note / 12 - 1)
        }

        /// jackd's xruns so far (its log names each: "XRun", "was not finished").
        static func xruns(_ server: PrivateJackServer) -> Int {
            let log = (try? String(contentsOfFile: serverLogPath(server.name), encoding: .utf8)) ?? ""
            return log.split(separator: "\n").filter { $0.localizedCaseInsensitiveContains("xrun") }.count
        }

        /// Whether the analyzer's face drew what the plugin's outputs say: the note, and the frequency
        /// and level to the digits drawn (half a unit of the last digit, and one unit for the value moving between).
        static func agrees(_ drawn: [String: String], _ printed: [String: Double]) -> Bool {
            guard drawn["valid"] == "1", printed["valid"] == 1, let note = printed["note"], let hz = printed["frequency"],
                  let level = printed["level"], let drawnText = drawn["frequency"], let drawnHz = Double(drawnText),
                  let drawnLevel = drawn["level"].flatMap(Double.init) else { return false }
            let decimals = drawnText.split(separator: ".").last.map(\.count) ?? 0
            let unit = pow(10, -Double(decimals))
            return drawn["note"] == noteName(note) && abs(drawnHz - hz) <= 1.5 * unit && abs(drawnLevel - level) <= 0.15
        }

        @Test("the analyzer's face shows the note and frequency the plugin outputs, follows a change, and resizing and closing it cost no xrun")
        func analyzerFace() throws {
            let server = try startServer(periodFrames: 256, sampleRateHz: 48000, realtime: true)
            let display = try XvfbDisplay()
            let path = ["LV2_PATH": try LV2Bundle.staged.get()]
            let generator = try JalvHost(name: "gen", uri: LV2Bundle.generator, server: server.name,
                                         controls: ["frequency": 440.5, "level": -12], firstOutput: "out", environment: path)
            defer { generator.stop() }
            let tuner = try FaceHost(name: "tuner", uri: LV2Bundle.analyzer, server: server.name, display: display)
            defer { tuner.stop() }
            try waitForPort("tuner:in", server: server.name, timeoutSeconds: 15)
            let connect = try runCommand(["gen:out", "tuner:in"], executable: "/usr/bin/jack_connect",
                                         environment: ["JACK_DEFAULT_SERVER": server.name], timeoutSeconds: 10)
            #expect(connect.status == 0, "jack_connect: \(connect.stderr)")

            let windows = try #require(tuner.waitForWindows(title: "ToneNode analyzer", faceTitle: "ToneNode analyzer face"),
                                       "no face window: \(tuner.command.stderr)")
            // A4 + 1.97 cents, drawn as the plugin outputs it.
            var printed: [String: Double] = [:]
            let first = tuner.waitForDrawn { drawn in
                printed = tuner.printed
                return Self.agrees(drawn, printed)
            }
            #expect(first.map { Self.agrees($0, printed) } == true, "drew \(first ?? [:]), the plugin printed \(printed)")
            #expect(first?["note"] == "A4" && first?["width"] == "480" && first?["height"] == "320", "\(first ?? [:])")

            // The screenshot once the history strip holds a second of readings (ten more draws).
            let firstDraws = Int(first?["draws"] ?? "") ?? 0
            tuner.waitForDrawn(timeoutSeconds: 5) { (Int($0["draws"] ?? "") ?? 0) >= firstDraws + 10 }
            let shot = Self.artifacts + "/lv2-analyzer-face.png"
            let screenshot = try tuner.xface(["shot", windows.topLevel, shot])
            #expect(screenshot.status == 0, "\(screenshot.stderr)")
            let colours = Int(screenshot.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            #expect(colours >= 16, "the screenshot is nearly blank: \(colours) colours")
            report("analyzer face: \(shot) (\(colours) colours), drew \(first ?? [:])")

            // The tone moves to A♯4 − 0.4 cents: the face follows what the plugin outputs.
            generator.command.send("set frequency 466.05")
            var moved: [String: Double] = [:]
            let followed = tuner.waitForDrawn { drawn in
                moved = tuner.printed
                return drawn["note"] == "A♯4" && Self.agrees(drawn, moved)
            }
            #expect(followed?["note"] == "A♯4" && followed.map { Self.agrees($0, moved) } == true,
                    "drew \(followed ?? [:]), the plugin printed \(moved)")

            // Resized larger and smaller, then closed, while the generator plays on: no xrun.
            let xrunsBefore = Self.xruns(server)
            for (width, height) in [(900, 600), (360, 260)] {
                let resize = try tuner.xface(["resize", windows.topLevel, "\(width)", "\(height)"])
                #expect(resize.status == 0, "\(resize.stderr)")
                // A draw at the new size that agrees with what the plugin printed at that
                // moment (one read after the other can straddle a new reading).
                var printedThen: [String: Double] = [:]
                let drawn = tuner.waitForDrawn { drawn in
                    printedThen = tuner.printed
                    return Int(drawn["width"] ?? "") == width && Self.agrees(drawn, printedThen)
                }
                #expect(drawn?["width"] == "\(width)" && drawn.map { Self.agrees($0, printedThen) } == true,
                        "after resizing to \(width)×\(height): \(drawn ?? [:]), the plugin printed \(printedThen)")
            }
            let close = try tuner.xface(["close", windows.topLevel])
            #expect(close.status == 0, "\(close.stderr)")
            let exit = tuner.command.exitStatus(timeoutSeconds: 15)
            #expect(exit?.status == 0, "jalv.gtk3 did not quit when its window closed: \(tuner.command.stderr)")
            try waitForPort("tuner:in", server: server.name, toExist: false, timeoutSeconds: 10)
            // The generator plays on after the face and its host left.
            #expect(generator.command.isRunning, "the generator's jalv stopped: \(generator.command.stderr)")
            try waitForPort("gen:out", server: server.name)
            let xruns = Self.xruns(server) - xrunsBefore
            #expect(xruns == 0, "resizing and closing the face cost \(xruns) xruns: \(serverLogPath(server.name))")
        }

        /// The centre of a control the generator's face reports (`x y width height` in the face), on the screen,
        /// at `fraction` of its width.
        static func point(_ drawn: [String: String], _ key: String, origin: (x: Int, y: Int), fraction: Double = 0.5) -> (Int, Int)? {
            let rect = drawn[key]?.split(separator: " ").compactMap { Double($0) } ?? []
            guard rect.count == 4 else { return nil }
            return (origin.x + Int((rect[0] + fraction * rect[2]).rounded()), origin.y + Int((rect[1] + rect[3] / 2).rounded()))
        }

        /// Polls the analyzer (jalv's `monitors`) until `condition` holds on its outputs (bounded); the last seen.
        static func waitForReading(_ tuner: JalvHost, timeoutSeconds: Double = 10,
                                   _ condition: ([String: Double]) -> Bool) -> [String: Double]? {
            var last: [String: Double]?
            _ = tuner.command.waitUntil(timeoutSeconds: timeoutSeconds) { _ in
                last = tuner.monitors(last: "valid")
                return last.map(condition) ?? false
            }
            return last
        }

        @Test("the generator's face writes its ports: two wheel notches, a press on the level slider and mute change what the analyzer hears")
        func generatorFace() throws {
            let server = try startServer(periodFrames: 256, sampleRateHz: 48000, realtime: true)
            let display = try XvfbDisplay()
            let tuner = try JalvHost(name: "tuner", uri: LV2Bundle.analyzer, server: server.name, firstOutput: "out",
                                     environment: ["LV2_PATH": try LV2Bundle.staged.get()])
            defer { tuner.stop() }
            let generator = try FaceHost(name: "gen", uri: LV2Bundle.generator, server: server.name, display: display,
                                         controls: ["frequency": 440, "level": -12])
            defer { generator.stop() }
            try waitForPort("gen:out", server: server.name, timeoutSeconds: 15)
            let connect = try runCommand(["gen:out", "tuner:in"], executable: "/usr/bin/jack_connect",
                                         environment: ["JACK_DEFAULT_SERVER": server.name], timeoutSeconds: 10)
            #expect(connect.status == 0, "jack_connect: \(connect.stderr)")
            let windows = try #require(generator.waitForWindows(title: "ToneNode generator", faceTitle: "ToneNode generator face"),
                                       "no face window: \(generator.command.stderr)")
            let first = try #require(generator.waitForDrawn { $0["frequency"] == "440.00" && $0["level"] == "-12.0" },
                                     "the face never drew 440 Hz, -12 dBFS: \(generator.drawn ?? [:])")
            let origin = try generator.screenOrigin(of: windows.face)

            // Two notches up on the frequency slider: two semitones, B4 (493.88 Hz).
            let slider = try #require(Self.point(first, "frequency_slider", origin: origin), "\(first)")
            let wheel = try generator.xdotool(["mousemove", "\(slider.0)", "\(slider.1)", "click", "--repeat", "2", "--delay", "50", "4"])
            #expect(wheel.status == 0, "\(wheel.stderr)")
            let raised = generator.waitForDrawn { $0["frequency"] == "493.88" }
            #expect(raised?["frequency"] == "493.88", "\(raised ?? [:])")
            let heard = Self.waitForReading(tuner) { abs(($0["frequency"] ?? 0) - 493.883) < 0.01 && $0["note"] == 71 }
            #expect(heard.map { abs(($0["frequency"] ?? 0) - 493.883) < 0.01 && $0["note"] == 71 } == true, "\(heard ?? [:])")

            // A press at three quarters of the level slider: −30 dBFS (−120…0 dB), give or take a pixel.
            let level = try #require(Self.point(first, "level_slider", origin: origin, fraction: 0.75), "\(first)")
            let press = try generator.xdotool(["mousemove", "\(level.0)", "\(level.1)", "click", "1"])
            #expect(press.status == 0, "\(press.stderr)")
            let lowered = generator.waitForDrawn { abs((Double($0["level"] ?? "") ?? 0) + 30) <= 0.5 }
            let drawnLevel = try #require(lowered.flatMap { Double($0["level"] ?? "") }, "\(lowered ?? [:])")
            #expect(abs(drawnLevel + 30) <= 0.5, "\(lowered ?? [:])")
            let quieter = Self.waitForReading(tuner) { abs(($0["level"] ?? 0) - drawnLevel) < 0.1 }
            #expect(quieter.map { abs(($0["level"] ?? 0) - drawnLevel) < 0.1 } == true, "drew \(drawnLevel): \(quieter ?? [:])")

            let shot = Self.artifacts + "/lv2-generator-face.png"
            let screenshot = try generator.xface(["shot", windows.topLevel, shot])
            #expect(screenshot.status == 0, "\(screenshot.stderr)")
            report("generator face: \(shot), drew \(lowered ?? [:])")

            // Mute: the analyzer hears no tone.
            let mute = try #require(Self.point(first, "mute_button", origin: origin), "\(first)")
            let click = try generator.xdotool(["mousemove", "\(mute.0)", "\(mute.1)", "click", "1"])
            #expect(click.status == 0, "\(click.stderr)")
            #expect(generator.waitForDrawn { $0["muted"] == "1" }?["muted"] == "1")
            let silent = Self.waitForReading(tuner) { $0["valid"] == 0 }
            #expect(silent?["valid"] == 0, "\(silent ?? [:])")
        }
    }
}
