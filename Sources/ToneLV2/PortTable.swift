/// A plugin's port buffers by port index, as the host connects them (nil
/// until it does). Owned by one plugin instance, which calls `free` in its
/// `deinit`. The audio-thread accessors are `@_noLocks`.
struct PortTable {
    let count: Int
    private let buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>

    init(count: Int) {
        self.count = count
        buffers = .allocate(capacity: count)
        buffers.initialize(repeating: nil, count: count)
    }

    func free() {
        buffers.deinitialize(count: count)
        buffers.deallocate()
    }

    /// `connect_port`: a port the plugin does not have is ignored.
    func connect(_ port: Int, _ data: UnsafeMutableRawPointer?) {
        guard port >= 0 && port < count else { return }
        buffers[port] = data?.assumingMemoryBound(to: Float.self)
    }

    /// The buffer of `port` (an index below `count`: the plugin's own constants).
    @_noLocks
    func buffer(_ port: Int) -> UnsafeMutablePointer<Float>? { buffers[port] }

    /// A control input's value, or `fallback` while it is not connected.
    @_noLocks
    func value(_ port: Int, _ fallback: Float) -> Float { buffers[port]?.pointee ?? fallback }

    /// Sets a control output (if connected).
    @_noLocks
    func set(_ port: Int, _ value: Float) { buffers[port]?.pointee = value }
}
