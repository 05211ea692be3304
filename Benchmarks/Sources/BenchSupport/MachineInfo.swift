#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// One line describing where the numbers were taken.
public enum MachineInfo {
    public static var summary: String {
        var parts = ["nproc \(sysconf(Int32(_SC_NPROCESSORS_ONLN)))", "uname -m \(machine)"]
        if let model = cpuModel { parts.append(model) }
        if let load = loadAverage { parts.append("load average \(load)") }
        return parts.joined(separator: ", ")
    }

    /// `uname -m`.
    private static var machine: String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &names.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// "model name" from /proc/cpuinfo (Linux only; nil elsewhere).
    private static var cpuModel: String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The 1-, 5- and 15-minute load averages at start (Linux only).
    private static var loadAverage: String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
