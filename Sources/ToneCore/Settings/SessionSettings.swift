import Foundation
import ToneDSP

/// The settings an NSM session keeps for `tonenode run` (JSON at `path + ".json"`):
/// what controls change live (frequency, level, mute) and the options that
/// shaped the node. Connections are not kept: the session manager's JACK
/// tools restore them.
public struct SessionSettings: Codable, Equatable, Sendable {
    public var frequencyHz: Double
    public var levelDBFS: Double
    public var muted: Bool
    public var fftSize: Int
    public var hopFrames: Int
    public var lowHz: Double
    public var highHz: Double?
    public var snrMinDB: Double
    public var maxTones: Int
    public var a4Hz: Double
    public var channels: Int

    public init(_ settings: NodeSettings) {
        frequencyHz = settings.frequencyHz
        levelDBFS = settings.levelDBFS
        muted = settings.muted
        fftSize = settings.fftSize
        hopFrames = settings.hopFrames
        lowHz = settings.lowHz
        highHz = settings.highHz
        snrMinDB = settings.snrMinDB
        maxTones = settings.maxTones
        a4Hz = settings.a4Hz
        channels = settings.channels
    }

    public func apply(to settings: inout NodeSettings) {
        settings.frequencyHz = frequencyHz
        settings.levelDBFS = levelDBFS
        settings.muted = muted
        settings.fftSize = fftSize
        settings.hopFrames = hopFrames
        settings.lowHz = lowHz
        settings.highHz = highHz
        settings.snrMinDB = snrMinDB
        settings.maxTones = maxTones
        settings.a4Hz = a4Hz
        settings.channels = channels
    }

    /// The file for an NSM project path.
    public static func fileURL(sessionPath: String) -> URL { URL(fileURLWithPath: sessionPath + ".json") }

    /// nil when there is no file yet (a new session); throws a one-line reason when it is unreadable.
    public static func load(sessionPath: String) throws(SessionFileError) -> SessionSettings? {
        let url = fileURL(sessionPath: sessionPath)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let loaded = try JSONDecoder().decode(SessionSettings.self, from: Data(contentsOf: url))
            guard loaded.frequencyHz.isFinite, loaded.frequencyHz > 0, loaded.levelDBFS.isFinite,
                  (1...8).contains(loaded.channels), loaded.fftSize > 0, loaded.hopFrames > 0,
                  loaded.maxTones > 0, EqualTemperament.a4RangeHz.contains(loaded.a4Hz) else {
                throw SessionFileError(description: "values out of range")
            }
            return loaded
        } catch {
            throw SessionFileError(description: "cannot read session settings \(url.path): \(error)")
        }
    }

    /// Writes atomically (a temporary file renamed over the old one), creating the directory.
    public func save(sessionPath: String) throws(SessionFileError) {
        let url = Self.fileURL(sessionPath: sessionPath)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(self).write(to: url, options: .atomic)
        } catch {
            throw SessionFileError(description: "cannot save session settings \(url.path): \(error.localizedDescription)")
        }
    }
}

/// A session file that cannot be read or written, as one line.
public struct SessionFileError: Error, CustomStringConvertible {
    public let description: String
}
