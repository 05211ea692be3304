import Testing
import ToneCore

@Suite("Control lines")
struct ControlCommandParseTests {
    @Test("good lines", arguments: [
        ("freq 440", ControlCommand.frequency(hz: 440)), ("/tonenode/freq 1234.5", .frequency(hz: 1234.5)),
        ("level -12", .level(dbfs: -12)), ("  level   0 ", .level(dbfs: 0)),
        ("mute on", .mute(true)), ("mute 0", .mute(false)),
        ("beep 1000 0.25", .beep(hz: 1000, seconds: 0.25)), ("/tonenode/beep 440 1", .beep(hz: 440, seconds: 1)),
        ("sweep 20 20000 10", .sweep(startHz: 20, endHz: 20000, seconds: 10)),
        ("sweep 8000 100 0.5", .sweep(startHz: 8000, endHz: 100, seconds: 0.5)),
    ])
    func good(line: String, command: ControlCommand) throws {
        #expect(try ControlCommand.parse(line) == command)
    }

    @Test("blank lines and comments are nothing", arguments: ["", "   ", "# freq 440"])
    func nothing(line: String) throws {
        #expect(try ControlCommand.parse(line) == nil)
    }

    @Test("bad lines are one sentence naming the line", arguments: [
        "freq", "freq -1", "freq nan", "freq inf", "freq 440 880", "level 3", "level abc", "mute maybe", "bogus 1", "sweep 1 2",
        "beep 440", "beep 440 0", "beep 440 -1", "beep 0 1", "beep 440 abc", "beep 440 inf", "sweep 100 200 4000",
        "sweep -100 200 1", "sweep 100 nan 1", "beep 440 1 2",
    ])
    func bad(line: String) {
        #expect(throws: ControlCommand.Problem.self) { try ControlCommand.parse(line) }
        do { _ = try ControlCommand.parse(line) } catch { #expect(error.description.contains("'\(line)'")) }
    }
}
