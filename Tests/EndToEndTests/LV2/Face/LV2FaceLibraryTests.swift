import EndToEndSupport
import Foundation
import Testing

/// The faces' place in the bundle: declared validly, in a library of their own
/// that alone links X11 and cairo, so the plugins load in hosts without X11.
@Suite("LV2 faces' library and declarations",
       .enabled(if: LV2Bundle.missing == nil
                && FileManager.default.fileExists(atPath: productsDirectory.appendingPathComponent("libToneNodeLV2UI.so").path)))
struct LV2FaceLibraryTests {
    /// The libraries `library` names as needed (`readelf -d`).
    static func needed(_ library: String) throws -> [String] {
        let result = try runCommand(["-d", productsDirectory.appendingPathComponent(library).path],
                                    executable: "/usr/bin/readelf", timeoutSeconds: 30)
        return result.stdoutLines.filter { $0.contains("(NEEDED)") }
            .compactMap { $0.split(separator: "[").last?.split(separator: "]").first.map(String.init) }
    }

    @Test("the bundle with its faces passes lv2_validate")
    func validates() throws {
        let bundle = try LV2Bundle.staged.get() + "/tonenode.lv2"
        let result = try runCommand(["\(bundle)/manifest.ttl", "\(bundle)/tonenode.ttl", "\(bundle)/ui.ttl"],
                                    executable: "/usr/bin/lv2_validate", timeoutSeconds: 60)
        #expect(result.status == 0 && result.stdout.contains("Found 0 errors"), "\(result.stdout)\(result.stderr)")
    }

    @Test("the plugins' library needs no X11 or cairo; the faces' library needs both and exports lv2ui_descriptor alone")
    func libraries() throws {
        let plugins = try Self.needed("libToneNodeLV2.so")
        #expect(!plugins.isEmpty && !plugins.contains { $0.hasPrefix("libX11") || $0.hasPrefix("libcairo") }, "\(plugins)")
        let faces = try Self.needed("libToneNodeLV2UI.so")
        #expect(faces.contains { $0.hasPrefix("libX11") } && faces.contains { $0.hasPrefix("libcairo") }, "\(faces)")
        let symbols = try runCommand(["-D", "--defined-only", productsDirectory.appendingPathComponent("libToneNodeLV2UI.so").path],
                                     executable: "/usr/bin/nm", timeoutSeconds: 30)
        let exported = symbols.stdoutLines.compactMap { line -> String? in
            let fields = line.split(separator: " ")
            return fields.count == 3 && fields[1] == "T" ? String(fields[2]) : nil
        }
        #expect(exported == ["lv2ui_descriptor"], "\(exported)")
    }
}
