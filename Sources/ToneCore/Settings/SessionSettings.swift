import Foundation
import ToneDSP

/// The settings an NSM session keeps for `tonenode run` (JSON at `path + ".json"`):
/// an encoding of `NodeSettings` without its per-launch properties (see
/// `NodeSettings.sessionFields` and `perLaunchProperties`). A file written by
/// an older version holds a subset of the keys; the rest keep their defaults.
@dynamicMemberLookup
public struct SessionSettings: Codable, Equatable, Sendable {
    /// The saved settings; per-launch properties are at their defaults, so two
    /// values are equal exactly when they would save the same file.
    public private(set) var settings: NodeSettings

    public init(_ settings: NodeSettings) {
        self.settings = settings.withPerLaunchProperties(of: NodeSettings())
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<NodeSettings, Value>) -> Value {
        settings[keyPath: keyPath]
    }

    /// Replaces everything a session keeps; the per-launch properties of `settings` stay.
    public func apply(to settings: inout NodeSettings) {
        settings = self.settings.withPerLaunchProperties(of: settings)
    }

    // MARK: - Codable

    public init(from decoder: any Decoder) throws {
        var settings = NodeSettings()
        let container = try decoder.container(keyedBy: SessionKey.self)
        for field in NodeSettings.sessionFields { try field.decode(into: &settings, from: container) }
        self.settings = settings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SessionKey.self)
        for field in NodeSettings.sessionFields { try field.encode(settings, to: &container) }
    }

    // MARK: - Files

    /// The file for an NSM project path.
    public static func fileURL(sessionPath: String) -> URL { URL(fileURLWithPath: sessionPath + ".json") }

    /// nil when there is no file yet (a new session); throws a one-line reason
    /// when it is unreadable or a value in it breaks a rule (naming its key).
    public static func load(sessionPath: String) throws(SessionFileError) -> SessionSettings? {
        let url = fileURL(sessionPath: sessionPath)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let loaded: SessionSettings
        do {
            loaded = try decode(Data(contentsOf: url))
        } catch let error as DecodingError {
            throw SessionFileError(description: "cannot read session settings \(url.path): \(Self.reason(error))")
        } catch {
            throw SessionFileError(description: "cannot read session settings \(url.path): \(error.localizedDescription)")
        }
        // Rules that need the server's rate are checked when the node opens.
        if let problem = loaded.settings.problems(sampleRateHz: nil).first {
            throw SessionFileError(description: "cannot read session settings \(url.path): \(problem.sessionDescription)")
        }
        return loaded
    }

    /// The settings in a session file's bytes (no rule checked).
    public static func decode(_ data: Data) throws -> SessionSettings {
        try JSONDecoder().decode(SessionSettings.self, from: data)
    }

    /// The file's bytes: sorted keys, one per line.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// Writes atomically (a temporary file renamed over the old one), creating the directory.
    public func save(sessionPath: String) throws(SessionFileError) {
        let url = Self.fileURL(sessionPath: sessionPath)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try encoded().write(to: url, options: .atomic)
        } catch {
            throw SessionFileError(description: "cannot save session settings \(url.path): \(error.localizedDescription)")
        }
    }

    /// A decoding error as a few words naming the key.
    private static func reason(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _): return "no \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context)) is not a valid value"
        @unknown default: return "\(error)"
        }
    }
}

/// A session file that cannot be read or written, as one line.
public struct SessionFileError: Error, CustomStringConvertible {
    public let description: String
}
