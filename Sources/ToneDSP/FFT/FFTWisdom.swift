import CFFTW
#if canImport(Glibc)
import Glibc
#endif

/// FFTW's wisdom (what `FFTW_MEASURE` learnt) kept between runs, one file per
/// precision, so a machine pays the measuring once: it takes a fraction of a
/// second to seconds per size on a loaded machine, which a live node would
/// otherwise add to every start before its first report.
///
/// The file: `$TONENODE_FFTW_WISDOM_DIR/fftw-wisdom-{float,double}`, else
/// under `$XDG_CACHE_HOME/tonenode`, else `~/.cache/tonenode`; an empty
/// `TONENODE_FFTW_WISDOM_DIR` turns it off. A missing, unreadable or foreign
/// file only means measuring again (FFTW checks what it imports).
///
/// Used only inside `FFTPlanner`'s lock (FFTW's planner state is global).
enum FFTWisdom: CaseIterable {
    case single, double

    static var directory: String? {
        if let explicit = getenv("TONENODE_FFTW_WISDOM_DIR").map({ String(cString: $0) }) {
            return explicit.isEmpty ? nil : explicit
        }
        if let cache = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), cache.hasPrefix("/") {
            return cache + "/tonenode"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") else { return nil }
        return home + "/.cache/tonenode"
    }

    var path: String? {
        Self.directory.map { $0 + (self == .single ? "/fftw-wisdom-float" : "/fftw-wisdom-double") }
    }

    /// What FFTW knows now, as text (to tell whether measuring taught it anything).
    func exported() -> String {
        guard let text = self == .single ? fftwf_export_wisdom_to_string() : fftw_export_wisdom_to_string() else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// Adds the file's wisdom to FFTW's.
    func load() {
        guard let path else { return }
        _ = self == .single ? fftwf_import_wisdom_from_filename(path) : fftw_import_wisdom_from_filename(path)
    }

    /// Writes FFTW's wisdom to the file: to a temporary name first and then
    /// renamed, so nodes starting together never read a half-written file.
    func save() {
        guard let directory = Self.directory, let path else { return }
        var partial = ""
        for component in directory.split(separator: "/") {
            partial += "/" + component
            mkdir(partial, 0o755)
        }
        let temporary = path + ".\(getpid())"
        let written = self == .single ? fftwf_export_wisdom_to_filename(temporary)
                                      : fftw_export_wisdom_to_filename(temporary)
        if written != 0 && rename(temporary, path) == 0 { return }
        unlink(temporary)
    }
}
