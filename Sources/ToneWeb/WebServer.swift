import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOPosix
import Synchronization

/// The live page's server (`--web`): the embedded page's files over HTTP
/// and the readings over a WebSocket at `/ws`, on its own event loop and
/// tasks. It never touches the JACK thread: lines reach it through `hub`
/// (each tab a bounded queue), controls leave it through `control`, the
/// same door as stdin and OSC.
public final class WebServer: Sendable {
    /// Where and how to listen.
    public struct Configuration: Sendable {
        /// An IP address (`127.0.0.1`, `0.0.0.0`, `::1`).
        public var host: String
        /// 0: the system picks one (`start` returns it).
        public var port: Int
        /// The secret every socket must carry; nil: none (loopback only).
        public var token: String?
        /// Host names the page may be reached by besides IP literals and `localhost`.
        public var extraHostNames: Set<String>
        /// Which command's page (`run`, ...): the page draws its view.
        public var command: String
        /// Called on each thread the server runs its work on, before the work (at most once a
        /// thread is up to it): `tonenode` renices them as it does the worker (nice 10).
        public var threadSetup: @Sendable () -> Void

        public init(host: String, port: Int, token: String?, extraHostNames: Set<String> = [], command: String,
                    threadSetup: @escaping @Sendable () -> Void = {}) {
            self.host = host
            self.port = port
            self.token = token
            self.extraHostNames = extraHostNames
            self.command = command
            self.threadSetup = threadSetup
        }
    }

    /// Applies one control line as stdin would; nil when it applied, else the
    /// one-line reason it did not (nothing changed). Called on the socket's task.
    public typealias ControlDoor = @Sendable (String) -> String?

    public let configuration: Configuration
    public let hub: WebHub
    let control: ControlDoor?
    private let boundPort = Atomic<Int>(0)
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Sockets closed for a malformed, oversized or flooding message.
    let closedForAbuse = Atomic<Int>(0)

    /// - Parameter control: nil: a page that only watches (its controls are refused).
    public init(_ configuration: Configuration, hub: WebHub = WebHub(), control: ControlDoor?) {
        self.configuration = configuration
        self.hub = hub
        self.control = control
    }

    /// The access rules with the port the server got.
    var access: WebAccess {
        WebAccess(port: boundPort.load(ordering: .relaxed), token: configuration.token,
                  extraHostNames: configuration.extraHostNames)
    }

    /// The port it listens on (0 before `start` returned).
    public var port: Int { boundPort.load(ordering: .relaxed) }
    /// Sockets closed for what they sent.
    public var socketsClosedForAbuse: Int { closedForAbuse.load(ordering: .relaxed) }

    /// Starts listening; returns the port once it is bound, or throws why it could not (address in use, say).
    public func start() async throws -> Int {
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Result<Int, any Error>.self)
        // One thread is plenty for a page's traffic; it runs at the worker's priority, below the JACK thread's.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        group.next().execute(configuration.threadSetup)
        let application = Application(
            router: router(),
            server: .http1WebSocketUpgrade(
                configuration: .init(ws: .init(maxFrameSize: WebInbound.maxBytes * 4)),
                shouldUpgrade: { [self] request, _, _ in try upgrade(request) }),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { [self] channel in
                boundPort.store(channel.localAddress?.port ?? 0, ordering: .relaxed)
                boundContinuation.yield(.success(channel.localAddress?.port ?? 0))
            },
            eventLoopGroupProvider: .shared(group),
            // Nothing of the server's own goes to stdout (reports live there) nor to stderr.
            logger: Logger(label: "tonenode.web") { _ in SwiftLogNoOpLogHandler() })
        let running = Task { [hub] in
            do {
                try await application.run()
            } catch {
                boundContinuation.yield(.failure(error))
            }
            hub.closeAll()
            boundContinuation.finish()
            try? await group.shutdownGracefully()
        }
        task.withLock { $0 = running }
        for await result in bound { return try result.get() }
        throw CancellationError()
    }

    /// Stops listening and closes every socket.
    public func stop() async {
        guard let running = task.withLock({ $0.take() }) else { return }
        running.cancel()
        hub.closeAll()
        await running.value
    }

    // MARK: - HTTP

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        for asset in WebPage.assets {
            router.get(RouterPath(stringLiteral: asset.path)) { [self] request, _ in serve(asset, request: request) }
        }
        return router
    }

    /// One embedded file, to a request whose Host names this server.
    private func serve(_ asset: WebPage.Asset, request: Request) -> Response {
        if let refusal = access.checkPage(host: request.head.authority) {
            return Response(status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: refusal.description + "\n")))
        }
        let text = asset.path == "/" ? WebPage.html(command: configuration.command) : asset.text
        return Response(status: .ok,
                        headers: [.contentType: asset.contentType, .cacheControl: "no-store",
                                  .xContentTypeOptions: "nosniff",
                                  .contentSecurityPolicy: WebPage.contentSecurityPolicy],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
