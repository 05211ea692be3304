import Foundation
import Testing
import ToneCore
import ToneDSP

/// Session files: an encoding of `NodeSettings`, so every option is kept and
/// a new one cannot be forgotten; old files still load; bad files are one line.
@Suite("Session settings")
struct SessionSettingsTests {
    /// Every saved property changed from its default (each to a value that passes the rules).
    static var everythingChanged: NodeSettings {
        var settings = NodeSettings()
        settings.frequencyHz = 523.25
        settings.levelDBFS = -9
        settings.muted = true
        settings.fftSize = 8192
        settings.hopFrames = 2048
        settings.lowHz = 50
        settings.highHz = 15_000
        settings.snrMinDB = -12
        settings.maxTones = 3
        settings.mode = .pitch
        settings.pitchLowHz = 60
        settings.pitchHighHz = 1200
        settings.a4Hz = 432
        settings.bendRangeSemitones = 12
        settings.channels = 2
        settings.receivesMessages = true
        settings.glideSeconds = 0.25
        settings.steadySpanSeconds = 2.5
        return settings
    }

    /// Every per-launch property changed from its default.
    static func withLaunchChanged(_ base: NodeSettings) -> NodeSettings {
        var settings = base
        settings.clientName = "nTEST"
        settings.serverName = "private"
        settings.connectIn = ["system:capture_1"]
        settings.connectOut = ["system:playback_1"]
        settings.connectMidi = ["a2j:midi"]
        settings.loopback = true
        settings.planning = .estimate
        settings.analyzesTones = false
        settings.messageProfiles = [.audible]
        settings.receivesCable = true
        settings.usesMetadata = false
        settings.ports = [.audioIn]
        return settings
    }

    /// Each stored property's label and value.
    static func fields(_ settings: NodeSettings) -> [String: String] {
        Dictionary(uniqueKeysWithValues: Mirror(reflecting: settings).children.compactMap { child in
            child.label.map { ($0, String(describing: child.value)) }
        })
    }

    static func temporarySessionPath() -> String {
        NSTemporaryDirectory() + "tn-session-\(UUID().uuidString)/ToneNode.nUNIT"
    }

    @Test("every stored property is either saved (under its own name) or named as per launch")
    func everyPropertyIsAccountedFor() throws {
        let labels = Set(Self.fields(NodeSettings()).keys)
        let saved = Set(NodeSettings.sessionFields.map(\.key))
        #expect(saved.isDisjoint(with: NodeSettings.perLaunchProperties))
        #expect(saved.union(NodeSettings.perLaunchProperties) == labels,
                "not accounted for: \(labels.subtracting(saved).subtracting(NodeSettings.perLaunchProperties)); unknown: \(saved.union(NodeSettings.perLaunchProperties).subtracting(labels))")
        let object = try JSONSerialization.jsonObject(with: SessionSettings(NodeSettings()).encoded()) as? [String: Any]
        #expect(Set(object?.keys.map { $0 } ?? []) == saved, "the file holds exactly the saved keys")
    }

    @Test("the fixture changes every saved property, and the per-launch fixture every other one")
    func fixturesCoverEverything() {
        let defaults = Self.fields(NodeSettings())
        let changed = Self.fields(Self.everythingChanged)
        let launched = Self.fields(Self.withLaunchChanged(NodeSettings()))
        for field in NodeSettings.sessionFields {
            #expect(changed[field.key] != defaults[field.key], "\(field.key) left at its default")
        }
        for label in NodeSettings.perLaunchProperties {
            #expect(launched[label] != defaults[label], "\(label) left at its default")
        }
        #expect(Self.everythingChanged.problems(sampleRateHz: 48_000).isEmpty)
    }

    @Test("every option set to a non-default value comes back from save and load")
    func roundTrip() throws {
        let path = Self.temporarySessionPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try SessionSettings(Self.withLaunchChanged(Self.everythingChanged)).save(sessionPath: path)
        let loaded = try #require(try SessionSettings.load(sessionPath: path))
        var restored = NodeSettings()
        loaded.apply(to: &restored)
        let expected = Self.fields(Self.everythingChanged)
        let got = Self.fields(restored)
        for field in NodeSettings.sessionFields {
            #expect(got[field.key] == expected[field.key], "\(field.key)")
        }
        // Per-launch properties are not in the file: the launch's own stay.
        let launch = Self.withLaunchChanged(NodeSettings())
        var relaunched = launch
        loaded.apply(to: &relaunched)
        #expect(relaunched == Self.withLaunchChanged(Self.everythingChanged))
        #expect(loaded == SessionSettings(Self.everythingChanged))
        #expect(loaded != SessionSettings(NodeSettings()))
    }

    @Test("a nil band top is saved as null and read back as nil")
    func nilHighHz() throws {
        var settings = Self.everythingChanged
        settings.highHz = nil
        let decoded = try SessionSettings.decode(SessionSettings(settings).encoded())
        #expect(decoded.highHz == nil)
        #expect(decoded == SessionSettings(settings))
    }

    @Test("a file written by the previous version (a subset of the keys) still loads")
    func previousVersionFile() throws {
        let old = #"""
            {"a4Hz":442,"channels":2,"fftSize":8192,"frequencyHz":523.25,"hopFrames":2048,"levelDBFS":-9,
             "lowHz":20,"maxTones":1,"muted":false,"snrMinDB":-20}
            """#
        let path = Self.temporarySessionPath()
        let url = SessionSettings.fileURL(sessionPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try Data(old.utf8).write(to: url)
        let loaded = try #require(try SessionSettings.load(sessionPath: path))
        #expect(loaded.frequencyHz == 523.25 && loaded.levelDBFS == -9 && loaded.a4Hz == 442)
        #expect(loaded.fftSize == 8192 && loaded.hopFrames == 2048 && loaded.channels == 2 && loaded.highHz == nil)
        // Keys the old version did not write keep their defaults.
        #expect(loaded.mode == .tone && loaded.bendRangeSemitones == 2)
        #expect(loaded.pitchLowHz == PitchDetectorConfiguration.defaultLowHz)
    }

    @Test("no file is a new session")
    func noFile() throws {
        #expect(try SessionSettings.load(sessionPath: Self.temporarySessionPath()) == nil)
    }

    @Test("a bad file is one line naming the key", arguments: [
        (#"{"hopFrames": 8192}"#, "hopFrames 8192 must be between 1 and the FFT size 4096"),
        (#"{"frequencyHz": -5}"#, "frequencyHz must be a positive number of Hz"),
        (#"{"a4Hz": 1000}"#, "a4Hz 1000.0 must be a frequency in Hz from 380 to 500"),
        (#"{"fftSize": 1000}"#, "fftSize 1000 must be a power of two"),
        (#"{"channels": 9}"#, "channels 9 must be from 1 to 8"),
        (#"{"maxTones": 0}"#, "maxTones 0 must be between 1 and 16"),
        (#"{"bendRangeSemitones": 30}"#, "bendRangeSemitones 30.0 must be a number of semitones from 0 to 24"),
        (#"{"lowHz": 500, "highHz": 100}"#, "lowHz:highHz must be LO:HI"),
        (#"{"pitchLowHz": 0}"#, "pitchLowHz:pitchHighHz"),
        (#"{"levelDBFS": 3}"#, "levelDBFS must be a finite number of dBFS at or below 0"),
        (#"{"mode": "loud"}"#, "mode is not a valid value"),
        (#"{"fftSize": "big"}"#, "fftSize has the wrong type"),
        (#"{"frequencyHz": null}"#, "frequencyHz"),
        (#"{"muted": false, "drop": "levelDBFS"}"#, "no levelDBFS"),
    ])
    func badFile(change: String, mentions: String) throws {
        // A good file from this version, with `change` merged over it.
        var object = try #require(try JSONSerialization.jsonObject(with: SessionSettings(NodeSettings()).encoded())
                                  as? [String: Any])
        let patch = try #require(try JSONSerialization.jsonObject(with: Data(change.utf8)) as? [String: Any])
        for (key, value) in patch where key != "drop" { object[key] = value }
        if let dropped = patch["drop"] as? String { object[dropped] = nil }
        let path = Self.temporarySessionPath()
        let url = SessionSettings.fileURL(sessionPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        do {
            _ = try SessionSettings.load(sessionPath: path)
            Issue.record("loaded a bad file: \(change)")
        } catch {
            #expect(error.description.hasPrefix("cannot read session settings \(url.path): "))
            #expect(error.description.contains(mentions), "\(error.description)")
            #expect(!error.description.contains("\n"), "one line: \(error.description)")
        }
    }
}
