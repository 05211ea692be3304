import Foundation
import Testing
import ToneCore

/// A patchbay file that cannot be used is named in plain words (never an
/// NSXMLParser error number), as `patch` prints it.
@Suite("Patchbay problems in plain words")
struct PatchbayErrorTests {
    @Test("a patchbay that is not XML, or not qjackctl's, names the line")
    func patchbayLines() {
        #expect(throws: PatchbayError.notXML(line: 3)) {
            try Patchbay.parse(Data("<?xml version=\"1.0\"?>\n<patchbay>\n<socket name=\"a\" <<\n</patchbay>\n".utf8))
        }
        #expect(throws: PatchbayError.notAPatchbay(line: 2, rootElement: "html")) {
            try Patchbay.parse(Data("<?xml version=\"1.0\"?>\n<html><body/></html>\n".utf8))
        }
        #expect(PatchbayError.notXML(line: 3).description == "line 3: not XML, so not a qjackctl patchbay file")
    }
}
