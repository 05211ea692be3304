import Foundation
import Testing
import ToneCore

/// A parameter's session key, for a key added after the first version: a
/// session written with `value` names the key and reads it back; a file from
/// before the key existed reads `defaultValue`.
func expectSessionKey(_ keyPath: WritableKeyPath<NodeSettings, Double>, _ key: String, value: Double,
                      defaultValue: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
    var settings = NodeSettings()
    settings[keyPath: keyPath] = value
    let data = try SessionSettings(settings).encoded()
    let written = String(decoding: data, as: UTF8.self)
    #expect(written.contains("\"\(key)\" : \(value.formatted(.number.grouping(.never)))"), "\(written)",
            sourceLocation: sourceLocation)
    #expect(try SessionSettings.decode(data).settings[keyPath: keyPath] == value, sourceLocation: sourceLocation)
    let older = #"{"frequencyHz":1000,"levelDBFS":-18,"muted":false,"fftSize":4096,"hopFrames":512,"lowHz":20,"snrMinDB":-20,"maxTones":1,"a4Hz":440,"channels":1}"#
    #expect(try SessionSettings.decode(Data(older.utf8)).settings[keyPath: keyPath] == defaultValue, sourceLocation: sourceLocation)
}
