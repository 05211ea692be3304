import Hummingbird
import HummingbirdWebSocket

extension WebServer {
    /// Upgrades `/ws` when Host, Origin and token pass; anything else stays plain HTTP (refused there).
    func upgrade(_ request: HTTPRequest) throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let path = request.path ?? ""
        let (route, query) = path.firstIndex(of: "?").map { (String(path[..<$0]), String(path[path.index(after: $0)...])) }
            ?? (path, nil)
        guard route == "/ws" else { return .dontUpgrade }
        guard access.checkSocket(host: request.authority,
                                 origin: request.headerFields[.origin], query: query) == nil else { return .dontUpgrade }
        return .upgrade([:]) { [self] inbound, outbound, _ in await serve(inbound, outbound) }
    }

    /// One tab: its queue's lines out, its control lines in, until either side ends.
    private func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async {
        let (id, queue) = hub.open()
        defer { hub.close(id) }
        queue.push(helloLine)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in await send(queue, to: outbound) }
            group.addTask { [self] in await receive(inbound, outbound, queue: queue) }
            // Either ends: the tab is gone (or misbehaved); stop the other.
            await group.next()
            queue.finish()
            group.cancelAll()
        }
    }

    /// The queue's lines, all that waited as one message (lines joined by a
    /// line feed) at most once a display frame (`framesPerSecond`), and a
    /// note of how many were dropped whenever that count grows.
    private func send(_ queue: WebClientQueue, to outbound: WebSocketOutboundWriter) async {
        var droppedSent = 0
        let clock = ContinuousClock()
        let frame = Duration.seconds(1) / Self.framesPerSecond
        while var lines = await queue.take() {
            configuration.threadSetup()
            let dropped = queue.dropped
            if dropped != droppedSent {
                droppedSent = dropped
                lines.append("{\"event\":\"web_dropped\",\"dropped\":\(dropped)}")
            }
            let sent = clock.now
            do {
                try await outbound.write(.text(lines.joined(separator: "\n")))
                // The lines that come meanwhile wait for the next frame, and go out together.
                try await Task.sleep(until: sent + frame, clock: clock)
            } catch {
                return
            }
        }
    }

    /// A page draws at most this often; more messages a second would be drawn never.
    static let framesPerSecond = 30

    /// The tab's messages: control lines through the door; anything else closes the socket.
    private func receive(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, queue: WebClientQueue) async {
        var rules = WebInbound()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            for try await message in inbound.messages(maxSize: WebInbound.maxBytes) {
                configuration.threadSetup()
                let now = (clock.now - start) / .seconds(1)
                let verdict: WebInbound.Verdict
                switch message {
                case .text(let text): verdict = rules.judge(text: text, nowSeconds: now)
                case .binary: verdict = rules.judgeBinary()
                }
                switch verdict {
                case .control(let line):
                    queue.push(controlAnswer(line))
                case .close(let reason):
                    closedForAbuse.add(1, ordering: .relaxed)
                    try? await outbound.close(.policyViolation, reason: reason)
                    return
                }
            }
        } catch {
            // Over maxSize, or a broken frame: the library ends the stream with an error.
            closedForAbuse.add(1, ordering: .relaxed)
            try? await outbound.close(.policyViolation, reason: "malformed message")
        }
    }

    /// What the page hears back for a control line: applied, or the reason it was not.
    private func controlAnswer(_ line: String) -> String {
        var answer = "{\"event\":\"control\",\"command\":" + WebJSON.string(line)
        guard let control else { return answer + ",\"ok\":false,\"reason\":\"this page only watches\"}" }
        if let reason = control(line) { return answer + ",\"ok\":false,\"reason\":" + WebJSON.string(reason) + "}" }
        answer += ",\"ok\":true}"
        return answer
    }

    /// The first line a tab gets: which command, whether its controls work.
    var helloLine: String {
        "{\"event\":\"web_hello\",\"command\":" + WebJSON.string(configuration.command)
            + ",\"controls\":\(control != nil)}"
    }
}
