import Foundation

/// Line output, unbuffered, so pipes see each report at once.
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func err(_ line: String) {
        FileHandle.standardError.write(Data(("tonenode: " + line + "\n").utf8))
    }
}
