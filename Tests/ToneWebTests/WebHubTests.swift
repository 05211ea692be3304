import Testing
@testable import ToneWeb

@Suite("WebHub: each tab a bounded queue")
struct WebHubTests {
    @Test func aTabThatDoesNotReadLosesTheOldestLinesCounted() async {
        let hub = WebHub()
        hub.publish("settings 1", retain: "settings")
        hub.publish("settings 2", retain: "settings")
        let (id, queue) = hub.open()
        let extra = 57
        for index in 0..<(WebClientQueue.capacity + extra) { hub.publish("line \(index)") }
        // The retained line came first and was pushed out with the oldest ones.
        #expect(queue.dropped == extra + 1)
        hub.close(id)
        var received: [String] = []
        while let lines = await queue.take() { received += lines }
        #expect(received.count == WebClientQueue.capacity)
        #expect(received.first == "line \(extra)")
        #expect(received.last == "line \(WebClientQueue.capacity + extra - 1)")
        #expect(hub.openTabs == 0)
    }

    @Test func aNewTabGetsTheLatestRetainedLineOfEachKind() async {
        let hub = WebHub()
        hub.publish("a1", retain: "a")
        hub.publish("b1", retain: "b")
        hub.publish("reading")
        hub.publish("a2", retain: "a")
        let (id, queue) = hub.open()
        hub.publish("after")
        hub.close(id)
        var received: [String] = []
        while let lines = await queue.take() { received += lines }
        #expect(received == ["a2", "b1", "after"])
        #expect(queue.dropped == 0)
    }
}

@Suite("WebHub: a new tab's backlog of readings")
struct WebHubBacklogTests {
    @Test func aNewTabGetsTheLastReadingsInOrderAsOneMessage() async {
        let hub = WebHub()
        let total = WebHub.historyCapacity + 123
        for index in 0..<total { hub.publish("{\"t\":\(index)}", history: true) }
        hub.publish("{\"event\":\"not a reading\"}")
        let (id, queue) = hub.open()
        hub.close(id)
        var received: [String] = []
        while let lines = await queue.take() { received += lines }
        #expect(received.count == 1)
        let expected = (total - WebHub.historyCapacity..<total).map { "{\"t\":\($0)}" }.joined(separator: ",")
        #expect(received.first == "{\"event\":\"backlog\",\"readings\":[" + expected + "]}")
    }
}
