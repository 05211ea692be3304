#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Binds a Unix stream socket at `path` (which must not exist). Listening (a
/// server's socket): returns its descriptor, for the caller to close. Not
/// listening: closes it at once, leaving the file (what a killed server
/// leaves, a path that refuses), and returns −1. Nil when the path does not
/// fit or the bind fails.
public func bindUnixSocket(at path: String, listening: Bool) -> Int32? {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let fits = withUnsafeMutableBytes(of: &address.sun_path) { buffer -> Bool in
        guard bytes.count < buffer.count else { return false }
        buffer.copyBytes(from: bytes)
        buffer[bytes.count] = 0
        return true
    }
    let bound = fits && withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    } == 0
    guard bound, !listening || listen(descriptor, 4) == 0 else {
        close(descriptor)
        return nil
    }
    if !listening {
        close(descriptor)
        return -1
    }
    return descriptor
}
