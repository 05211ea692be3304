import EndToEndSupport
import Foundation
import Testing
import ToneAudioFile

@Suite("--plot and measure's options on the command line")
struct PlotCommandTests {
    /// `analyze` of a WAV of `samples` at 48 kHz with `--plot` and `arguments`: its result and the picture's text.
    static func analyzePlot(_ samples: [Float], _ arguments: [String]) throws -> (result: CommandResult, svg: String?) {
        let wav = NSTemporaryDirectory() + "tn-plot-\(UUID().uuidString).wav"
        let svgPath = NSTemporaryDirectory() + "tn-plot-\(UUID().uuidString).svg"
        defer {
            try? FileManager.default.removeItem(atPath: wav)
            try? FileManager.default.removeItem(atPath: svgPath)
        }
        try AudioFileWriter.writeWAV(path: wav, samples: samples, sampleRateHz: 48000)
        let result = try runCommand(["analyze", wav, "--plot", svgPath] + arguments)
        return (result, try? String(contentsOfFile: svgPath, encoding: .utf8))
    }

    @Test func analyzeWritesSpectrumAndSpectrogram() throws {
        let samples = (0..<48000).map { Float(0.25 * sin(2 * Double.pi * 440 * Double($0) / 48000)) }
        let (result, svg) = try Self.analyzePlot(samples, ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let parsed = try #require(SVGDocumentCheck(svg ?? ""), "not well-formed XML")
        #expect(parsed.labels.contains("frequency (Hz)"))
        #expect(parsed.labels.contains("time (s)"))
        #expect(parsed.labels.contains("dBFS"))
        #expect(parsed.labels.contains { $0.hasPrefix("level (dBFS") })
        #expect(parsed.elementNames.contains("image") && parsed.elementNames.contains("polyline"))
    }

    @Test func analyzePitchModeAddsThePitchTrack() throws {
        // A sawtooth on A3, 220 Hz.
        let samples = (0..<48000).map { Float(0.3 * (2 * (Double($0) * 220 / 48000).truncatingRemainder(dividingBy: 1) - 1)) }
        let (result, svg) = try Self.analyzePlot(samples, ["--mode", "pitch"])
        #expect(result.status == 0, "\(result.stderr)")
        let parsed = try #require(SVGDocumentCheck(svg ?? ""))
        #expect(parsed.labels.contains { $0.hasPrefix("Pitch of ") && $0.contains("(A3)") }, "\(parsed.labels)")
        #expect(parsed.labels.contains("A3 220") && parsed.labels.contains("pitch (note, Hz)"))
    }

    @Test("bad options are one line and exit 64", arguments: [
        ["measure", "--plot", "response.png"],
        ["measure", "--level", "3"],
        ["measure", "--freq", "-5"],
        ["measure", "--sweep-start", "1000", "--sweep-end", "1500"],
        ["measure", "--sweep-seconds", "0.1"],
        ["measure", "--max-latency", "100"],
        ["measure", "--what", "bogus"],
        ["measure", "--what", "harmonics,"],
        ["measure", "--what", ""],
        // A --plot into a directory that does not exist: exit 1, like a file it cannot read (HintLineTests).
    ])
    func badOption(arguments: [String]) throws {
        let result = try runCommand(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderrLines.first?.hasPrefix("tonenode: error: ") == true,
                "\(result.stderr)")
    }

    @Test func measureWithoutAServerIsOneLineAndExit1() throws {
        let result = try runCommand(["measure", "-s", "tn-no-such-server-\(getpid())"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderrLines.first?.hasPrefix("tonenode: error: cannot reach") == true,
                "\(result.stderr)")
    }
}

/// Element names and text of an SVG document, if it is well-formed XML.
struct SVGDocumentCheck {
    var elementNames: Set<String> = []
    var labels: [String] = []

    init?(_ svg: String) {
        final class Delegate: NSObject, XMLParserDelegate {
            var names: Set<String> = []
            var texts: [String] = []
            var current: String?
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                        qualifiedName: String?, attributes: [String: String] = [:]) {
                names.insert(name)
                if name == "text" { current = "" }
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                if name == "text", let current { texts.append(current) }
                current = nil
            }
        }
        let delegate = Delegate()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = delegate
        guard parser.parse() else { return nil }
        elementNames = delegate.names
        labels = delegate.texts
    }
}

#if canImport(FoundationXML)
import FoundationXML
#endif
