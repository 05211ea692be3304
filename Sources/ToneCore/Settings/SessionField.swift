/// One key of a session file and the setting it saves: `frequencyHz` holds
/// `NodeSettings.frequencyHz`. Declared with its parameter (`Parameters`);
/// a session file is these fields in the order of `Parameters.all`.
public struct SessionField: Sendable {
    /// The key in the file, the setting's own property name.
    public let key: String
    /// Whether a file must hold it: the first version wrote these, so a file
    /// without one is not a session file. Keys added later are optional: a
    /// file from an older version leaves them at their defaults.
    public let isRequired: Bool
    private let encodeValue: @Sendable (NodeSettings, inout KeyedEncodingContainer<SessionKey>, SessionKey) throws -> Void
    private let decodeValue: @Sendable (inout NodeSettings, KeyedDecodingContainer<SessionKey>, SessionKey) throws -> Void
    private let copyValue: @Sendable (NodeSettings, inout NodeSettings) -> Void

    private init<Value: Codable & Sendable>(_ key: String, _ path: WritableKeyPath<NodeSettings, Value> & Sendable, isRequired: Bool) {
        self.key = key
        self.isRequired = isRequired
        // A nil optional is written as an explicit `null`.
        encodeValue = { settings, container, key in try container.encode(settings[keyPath: path], forKey: key) }
        decodeValue = { settings, container, key in settings[keyPath: path] = try container.decode(Value.self, forKey: key) }
        copyValue = { source, target in target[keyPath: path] = source[keyPath: path] }
    }

    /// A key every session file holds.
    public static func required<Value: Codable & Sendable>(_ key: String, _ path: WritableKeyPath<NodeSettings, Value> & Sendable) -> SessionField {
        SessionField(key, path, isRequired: true)
    }

    /// A key added after the first version: a file without it keeps the default.
    public static func added<Value: Codable & Sendable>(_ key: String, _ path: WritableKeyPath<NodeSettings, Value> & Sendable) -> SessionField {
        SessionField(key, path, isRequired: false)
    }

    /// Gives `target` the setting of `source`.
    func copy(from source: NodeSettings, to target: inout NodeSettings) { copyValue(source, &target) }

    /// Writes the setting under its key.
    func encode(_ settings: NodeSettings, to container: inout KeyedEncodingContainer<SessionKey>) throws {
        try encodeValue(settings, &container, SessionKey(key))
    }

    /// Reads the setting when the file holds its key; a missing required key is an error.
    func decode(into settings: inout NodeSettings, from container: KeyedDecodingContainer<SessionKey>) throws {
        let codingKey = SessionKey(key)
        if container.contains(codingKey) {
            try decodeValue(&settings, container, codingKey)
        } else if isRequired {
            throw DecodingError.keyNotFound(codingKey, DecodingError.Context(
                codingPath: container.codingPath, debugDescription: "no \(key)"))
        }
    }
}

/// A session file's key, as the coder sees it.
public struct SessionKey: CodingKey, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }
    public init(_ key: String) { stringValue = key }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
