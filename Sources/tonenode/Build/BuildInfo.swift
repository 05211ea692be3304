import Foundation

/// What `tonenode --version` prints: the package version and the git commit
/// the binary was built from.
///
/// The commit is not compiled in (a plain `swift build` must work on any
/// checkout, or on none): `scripts/install` and `scripts/package-deb` write it
/// to `share/tonenode/build-commit` beside the installed binary
/// (`PREFIX/bin/tonenode` reads `PREFIX/share/tonenode/build-commit`). A binary
/// run from `.build/` has no such file and says the commit is unknown.
enum BuildInfo {
    /// The release version; `scripts/package-deb` takes the Debian version from this line.
    static let packageVersion = "0.1.0"

    /// `0.1.0 (commit 1a2b3c4d5e6f)`, or `0.1.0 (commit unknown: …)`.
    static var versionLine: String {
        if let commit = installedCommit() { return "\(packageVersion) (commit \(commit))" }
        return "\(packageVersion) (commit unknown: not built by scripts/install or scripts/package-deb)"
    }

    /// The first line of `../share/tonenode/build-commit` next to the running binary, if any.
    static func installedCommit() -> String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let prefix = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
        let file = prefix.appendingPathComponent("share/tonenode/build-commit")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        return line.isEmpty ? nil : line
    }
}
