import EndToEndSupport
import Foundation
import Testing
import ToneDSP
@testable import tonenode

extension JackServerTests {
    @Suite("The live view on a real terminal")
    struct LiveViewTerminalTests {
        @Test("on a terminal, run redraws a view in place; piped, it prints lines")
        func terminal() throws {
            let server = try startServer()
            defer { server.stop() }
            // `script` gives tonenode a pseudo-terminal as stdout and copies what it draws.
            let command = "\(productsDirectory.path)/tonenode run -s \(server.name) -n live --freq 445 "
                + "--connect-out live:in --duration 1.5"
            let result = try runCommand(["-qfec", command, "/dev/null"], executable: "/usr/bin/script",
                                        timeoutSeconds: 30)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\u{1B}[4A"), "redrawn in place (cursor up over the 4 lines)")
            #expect(result.stdout.contains("A4") && result.stdout.contains("+19.56 cents"))
            #expect(result.stdout.contains("DSP "))
            let piped = try runCommand(["run", "-s", server.name, "-n", "piped", "--freq", "445",
                                        "--connect-out", "piped:in", "--duration", "1"])
            #expect(piped.status == 0)
            #expect(!piped.stdout.contains("\u{1B}"), "no escape codes in a pipe")
            #expect(piped.stdoutLines.count >= 50)
        }
    }
}
