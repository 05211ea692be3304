import EndToEndSupport
import Foundation
import Testing

extension JackServerTests {
    @Suite("The JACK server killed under every command")
    struct ServerLossTests {
        @Test("jackd SIGKILLed and started again: run, receive and link reopen; run --no-reconnect, measure and send exit 1 with one line; run --duration ends on the wall clock")
        func killedUnderEveryCommand() throws {
            let name = "tn-test-loss-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            var server = try startServer(name: name)
            defer { server.stop() }
            let commands = try ServerLossCommands(start: { arguments in
                try LiveCommand([arguments[0], "-s", name] + arguments.dropFirst())
            }, linkPorts: ["--connect-out", "meter:in"])
            defer { commands.stop() }
            server.end(graceSeconds: 0)
            usleep(1_000_000)
            server = try startServer(name: name)
            commands.expectOutcomes()
        }
    }
}
