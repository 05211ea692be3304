import Testing
@testable import ToneWeb

@Suite("WebInbound: what a page may send")
struct WebInboundTests {
    @Test func aControlLineGoesThrough() {
        var rules = WebInbound()
        #expect(rules.judge(text: "control frequency 440", nowSeconds: 0) == .control("frequency 440"))
        #expect(rules.judge(text: "control   sweep 100 200 1  ", nowSeconds: 0) == .control("sweep 100 200 1"))
        // A bad value is not malformed: ControlCommand says why, and the socket stays open.
        #expect(rules.judge(text: "control frequency -3", nowSeconds: 0) == .control("frequency -3"))
    }

    @Test(arguments: ["frequency 440", "control ", "control", "", "CONTROL frequency 440", "control frequency 440\n",
                      "control frequency\u{0} 440", "control fréquence 440", "{\"control\":\"frequency 440\"}"])
    func anythingElseCloses(text: String) {
        var rules = WebInbound()
        #expect(rules.judge(text: text, nowSeconds: 0) == .close("malformed message"))
    }

    @Test func tooLongCloses() {
        var rules = WebInbound()
        let text = "control frequency " + String(repeating: "4", count: WebInbound.maxBytes)
        #expect(rules.judge(text: text, nowSeconds: 0) == .close("message too long"))
        #expect(rules.judgeBinary() == .close("malformed message"))
    }

    @Test func aFloodCloses() {
        var rules = WebInbound()
        let burst = Int(WebInbound.burst)
        for index in 0..<burst {
            #expect(rules.judge(text: "control mute on", nowSeconds: Double(index) * 0.001) == .control("mute on"))
        }
        #expect(rules.judge(text: "control mute on", nowSeconds: Double(burst) * 0.001) == .close("too many messages"))
    }

    @Test func aSteadyPaceBelowTheRateNeverCloses() {
        var rules = WebInbound()
        let interval = 1.0 / (WebInbound.perSecond * 0.9)
        for index in 0..<2000 {
            #expect(rules.judge(text: "control level -20", nowSeconds: Double(index) * interval) == .control("level -20"))
        }
    }
}
