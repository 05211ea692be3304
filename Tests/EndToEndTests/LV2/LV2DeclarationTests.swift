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

    @Test("every port a declaration names has its default, and its range where shared")
    func declaredPorts() throws {
        let declared = Parameters.all.filter { $0.lv2Port != nil }
        #expect(declared.count >= 7)
        for parameter in declared {
            let port = try #require(parameter.lv2Port)
            let ports = try Self.ports(of: port.plugin == .analyzer ? LV2Bundle.analyzer : LV2Bundle.generator)
            let found = try #require(ports[port.symbol], "\(parameter.name): no port \(port.symbol)")
            // The mode's scale points: 0 tone (the node's default), 1 pitch.
            let number = parameter.defaultNumber ?? (Parameters.mode.defaultValue == .tone ? 0 : 1)
            #expect(found["default"] == number, "\(port.symbol): default \(found["default"] ?? .nan), declared \(number)")
            guard port.sharesRange else { continue }
            let range = try #require(parameter.range)
            if range.lowerBound.isFinite { #expect(found["minimum"] == range.lowerBound, "\(port.symbol) minimum") }
            if range.upperBound.isFinite { #expect(found["maximum"] == range.upperBound, "\(port.symbol) maximum") }
        }
    }

    @Test("the analyzer's band top and pitch range top are the node's")
    func analyzer() throws {
        let ports = try Self.ports(of: LV2Bundle.analyzer)
        // The band's top defaults to the Nyquist frequency, as the node's: the port's maximum, capped at it.
        let high = try #require(ports["high"])
        #expect(high["default"] == high["maximum"])
        #expect(ports["frequency"]?["maximum"] == high["maximum"])
        // Pitch mode's range of fundamentals (`--mode pitch --band`), ports of its own as in the node.
        #expect(ports["pitch_high"]?["default"] == PitchDetectorConfiguration.defaultHighHz)
    }

    @Test("the generator's glide default is the node's")
    func generator() throws {
        let ports = try Self.ports(of: LV2Bundle.generator)
        #expect(ports["glide"]?["default"] == ToneGenerator.defaultRampSeconds)
    }
}
