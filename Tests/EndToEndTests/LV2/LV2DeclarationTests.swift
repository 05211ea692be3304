import Foundation
import Testing
import ToneCore
import ToneDSP

/// The bundle's control ports against the node's parameter declarations: a
/// default or range in `tonenode.ttl` that the node declares is the node's
/// (ToneCore's `Parameters`, their values declared in ToneDSP, where the
/// plugin reads them too). The ttl is data a host reads without running
/// anything, so it states them; this test keeps the two the same.
@Suite("LV2 bundle ports against the node's declarations")
struct LV2DeclarationTests {
    /// One port of `tonenode.ttl`: its numbers by property (`default`, `minimum`, `maximum`).
    struct Port {
        let numbers: [String: Double]
        subscript(_ property: String) -> Double? { numbers[property] }
    }

    /// The ports of plugin `uri`, by symbol.
    static func ports(of uri: String) throws -> [String: Port] {
        let ttl = try String(contentsOfFile: LV2Bundle.packageRoot + "/Sources/ToneLV2/bundle/tonenode.ttl", encoding: .utf8)
        let start = try #require(ttl.range(of: "<\(uri)>\n"))
        let end = ttl.range(of: "\n<urn:", range: start.upperBound..<ttl.endIndex)?.lowerBound ?? ttl.endIndex
        var ports: [String: Port] = [:]
        for block in ttl[start.upperBound..<end].components(separatedBy: "] ,") {
            guard let symbol = block.firstMatch(of: /lv2:symbol "(\w+)"/)?.1 else { continue }
            var numbers: [String: Double] = [:]
            for match in block.matches(of: /lv2:(default|minimum|maximum) (-?[0-9.]+)/) {
                numbers[String(match.1)] = Double(match.2)
            }
            ports[String(symbol)] = Port(numbers: numbers)
        }
        return ports
    }

    @Test("the analyzer's mode, A4, band and pitch range defaults and ranges are the node's")
    func analyzer() throws {
        let ports = try Self.ports(of: LV2Bundle.analyzer)
        let a4 = try #require(ports["a4"])
        #expect(a4["default"] == Parameters.a4.defaultValue)
        #expect(a4["minimum"] == Parameters.a4.range?.lowerBound && a4["maximum"] == Parameters.a4.range?.upperBound)
        // The mode's scale points: 0 tone (the node's default), 1 pitch.
        #expect(ports["mode"]?["default"] == 0 && Parameters.mode.defaultValue == .tone)
        #expect(ports["low"]?["default"] == Parameters.band.defaultValue)
        // The band's top defaults to the Nyquist frequency, as the node's: the port's maximum, capped at it.
        let high = try #require(ports["high"])
        #expect(high["default"] == high["maximum"])
        #expect(ports["frequency"]?["maximum"] == high["maximum"])
        // Pitch mode's range of fundamentals (`--mode pitch --band`), ports of its own as in the node.
        #expect(ports["pitch_low"]?["default"] == Parameters.pitchRange.defaultValue)
        #expect(ports["pitch_high"]?["default"] == PitchDetectorConfiguration.defaultHighHz)
    }

    @Test("the generator's frequency, level, mute and glide defaults are the node's")
    func generator() throws {
        let ports = try Self.ports(of: LV2Bundle.generator)
        #expect(ports["frequency"]?["default"] == Parameters.frequency.defaultValue)
        #expect(ports["level"]?["default"] == Parameters.level.defaultValue)
        #expect(ports["level"]?["maximum"] == Parameters.level.range?.upperBound)
        #expect(ports["mute"]?["default"] == (Parameters.mute.defaultValue ? 1 : 0))
        #expect(ports["glide"]?["default"] == ToneGenerator.defaultRampSeconds)
    }
}
