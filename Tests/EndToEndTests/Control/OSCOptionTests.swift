import EndToEndSupport
import Foundation
import Testing

@Suite("OSC options")
struct OSCOptionTests {
    @Test("a bad control option is one line and status 64", arguments: [
        ["--osc-port", "0"], ["--osc-port", "65536"], ["--osc-port", "-5"], ["-O", "abc"], ["--osc-host", ""],
        ["--bend-range", "30"], ["--bend-range", "-1"], ["--bend-range", "nan"], ["--a4", "1000"],
    ])
    func badOption(option: [String]) throws {
        let result = try runCommand(["run", "-s", "no-such-server"] + option)
        #expect(result.status == 64)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("tonenode: error:"), "stderr: \(result.stderr)")
    }

    @Test("a port already in use is one line and status 1")
    func portInUse() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try runCommand(["run", "-O", String(port), "-s", "no-such-server"])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["tonenode: error: OSC: cannot listen on 127.0.0.1 port \(port): Address already in use"])
    }
}
