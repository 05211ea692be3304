import Foundation
import Testing
import ToneCore
import ToneOSC
import ToneTestSupport

/// Builds OSC 1.0 packets by hand (padded strings, big-endian numbers), so
/// the decoder is tested on bytes that did not come from liblo itself.
struct OSCPacket {
    enum Argument {
        case int(Int32), long(Int64), float(Float), double(Double), string(String), blob([UInt8]), bool(Bool)
    }

    static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    static func message(_ path: String, _ arguments: [Argument]) -> [UInt8] {
        var tags = ","
        var data: [UInt8] = []
        for argument in arguments {
            switch argument {
            case .int(let v): tags += "i"; data += withUnsafeBytes(of: v.bigEndian) { Array($0) }
            case .long(let v): tags += "h"; data += withUnsafeBytes(of: v.bigEndian) { Array($0) }
            case .float(let v): tags += "f"; data += withUnsafeBytes(of: v.bitPattern.bigEndian) { Array($0) }
            case .double(let v): tags += "d"; data += withUnsafeBytes(of: v.bitPattern.bigEndian) { Array($0) }
            case .string(let v): tags += "s"; data += padded(v)
            case .bool(let v): tags += v ? "T" : "F"
            case .blob(let v):
                tags += "b"
                data += withUnsafeBytes(of: Int32(v.count).bigEndian) { Array($0) } + v
                while data.count % 4 != 0 { data.append(0) }
            }
        }
        return padded(path) + padded(tags) + data
    }
}

func decode(_ packet: [UInt8]) throws(ControlCommand.Problem) -> ControlCommand {
    let result = packet.withUnsafeBytes { raw in
        Result { () throws(ControlCommand.Problem) -> ControlCommand in try OSCDecoder.command(fromPacket: raw) }
    }
    return try result.get()
}

@Suite("OSC decoding (hand-made packets)")
struct OSCDecoderTests {
    @Test("numbers in every OSC numeric type make the same command")
    func numericTypes() throws {
        for argument: OSCPacket.Argument in [.int(880), .long(880), .float(880), .double(880)] {
            #expect(try decode(OSCPacket.message("/tonenode/freq", [argument])) == .frequency(hz: 880))
        }
        #expect(try decode(OSCPacket.message("/tonenode/sweep", [.float(20), .int(20000), .double(2.5)]))
                == .sweep(startHz: 20, endHz: 20000, seconds: 2.5))
        #expect(try decode(OSCPacket.message("/tonenode/beep", [.float(1000), .float(0.25)])) == .beep(hz: 1000, seconds: 0.25))
        #expect(try decode(OSCPacket.message("/tonenode/mute", [.bool(true)])) == .mute(true))
        #expect(try decode(OSCPacket.message("/tonenode/mute", [.int(0)])) == .mute(false))
        #expect(try decode(OSCPacket.message("/tonenode/level", [.float(-6.5)])) == .level(dbfs: -6.5))
        #expect(try decode(OSCPacket.message("/tonenode/glide", [.double(0.5)])) == .glide(seconds: 0.5))
        #expect(try decode(OSCPacket.message("/tonenode/glide", [.int(2)])) == .glide(seconds: 2))
    }

    @Test("bad packets are one sentence each", arguments: [
        (OSCPacket.message("/tonenode/freq", [.string("abc")]), "\"abc\""),
        (OSCPacket.message("/tonenode/freq", [.blob([1, 2, 3])]), "must be numbers"),
        (OSCPacket.message("/tonenode/freq", [.float(.nan)]), "positive number of Hz"),
        (OSCPacket.message("/tonenode/level", [.float(.infinity)]), "dBFS"),
        (OSCPacket.message("/tonenode/mute", [.float(0.5)]), "mute takes 1"),
        (OSCPacket.message("/tonenode/glide", [.float(11)]), "glide: 11.0 must be a number of seconds from 0 to 10"),
        (OSCPacket.message("/tonenode/beep", [.float(440), .float(4000)]), "at most 3600"),
        (OSCPacket.message("/tonenode/", []), "unknown command"),
        (OSCPacket.message("/elsewhere", [.int(1)]), "unknown path"),
        (OSCPacket.padded("#bundle") + [0, 0, 0, 0, 0, 0, 0, 1], "bundles are not supported"),
        (Array(OSCPacket.message("/tonenode/freq", [.float(440)]).dropLast(2)), "malformed"),
        ([UInt8](), "empty"),
        (Array("/tonenode/freq".utf8), "malformed"),
    ])
    func bad(packet: [UInt8], mention: String) {
        do {
            let command = try decode(packet)
            Issue.record("decoded \(command) from a bad packet")
        } catch {
            #expect(error.description.contains(mention), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("100 000 seeded random and mutated packets: a command or a sentence, never a crash")
    func randomPackets() {
        var random = SplitMix64(seed: 0x05C0_0FF5)
        let seeds = [
            OSCPacket.message("/tonenode/freq", [.float(440)]),
            OSCPacket.message("/tonenode/sweep", [.float(20), .float(20000), .float(10)]),
            OSCPacket.message("/tonenode/mute", [.bool(false)]),
        ]
        var commands = 0, problems = 0
        for round in 0..<100_000 {
            var packet: [UInt8]
            if round.isMultiple(of: 2) {
                packet = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<packet.count, using: &random)
                    packet[index] = UInt8.random(in: 0...255, using: &random)
                }
                if Bool.random(using: &random) { packet = Array(packet.prefix(Int.random(in: 0...packet.count, using: &random))) }
            } else {
                packet = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            do { _ = try decode(packet); commands += 1 } catch { problems += 1 }
        }
        report("OSC decoder on 100000 random/mutated packets: \(commands) commands, \(problems) one-line problems, no crash")
        #expect(commands + problems == 100_000)
    }
}
