import Foundation
import Testing
@testable import tonenode
@testable import ToneCommandLine

@Suite("JSONLine, the one JSON writer")
struct JSONLineTests {
    @Test("strings escape what JSON and JavaScript need, nothing else", arguments: [
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("a/b", #""a/b""#),
        ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F}", #""\u0000\u0001\u0008\u000c\u001f\u007f""#),
        ("\u{2028}\u{2029}", #""\u2028\u2029""#),
        ("é ✓ 🎵", "\"é ✓ 🎵\""),
    ])
    func quoted(text: String, json: String) throws {
        #expect(JSONLine.quoted(text) == json)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8)) as? [String]
        #expect(decoded == [text], "round trip through a JSON parser")
    }

    @Test("numbers: shortest or fixed decimals; nil and non-finite are null", arguments: [
        (440.0, JSONLine.NumberStyle.shortest, "440.0"), (1e-05, .shortest, "1e-05"), (-0.0, .shortest, "-0.0"),
        (12.34567, .decimals(4), "12.3457"), (17.25, .decimals(4), "17.2500"),
        (.nan, .shortest, "null"), (.infinity, .decimals(4), "null"), (-.infinity, .shortest, "null"),
    ])
    func number(value: Double, style: JSONLine.NumberStyle, text: String) {
        #expect(JSONLine.number(value, style) == text)
    }

    @Test func nilIsNull() {
        var line = JSONLine()
        line.add("number", nil as Double?)
        line.add("text", nil as String?)
        #expect(line.description == #"{"number":null,"text":null}"#)
    }

    @Test("fields keep the order they were added in; arrays hold objects")
    func order() {
        var line = JSONLine()
        line.add("z", 1)
        line.add("a", true)
        line.add("m", "x")
        line.add("b", 2.5)
        var inner = JSONLine()
        inner.add("k", false)
        line.add("list", [inner, JSONLine()])
        line.add("empty", [JSONLine]())
        #expect(line.description == #"{"z":1,"a":true,"m":"x","b":2.5,"list":[{"k":false},{}],"empty":[]}"#)
        #expect(JSONLine().description == "{}")
    }
}
