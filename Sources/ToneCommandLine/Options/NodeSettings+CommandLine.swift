import ArgumentParser
import ToneCore

extension NodeSettings {
    /// Checks the settings an option group sets against the node's rules
    /// (`NodeSettings.problems`), before any JACK work: the first broken rule
    /// among `settings` becomes the command line's one-line `ValidationError`,
    /// naming the flag. Rules that need the server's rate wait for `Node.init`.
    /// - Parameters:
    ///   - settings: the settings the group owns (others keep their defaults and are not judged here).
    ///   - apply: writes the group's options into default settings.
    public static func validate(_ settings: Set<SettingsProblem.Setting>, _ apply: (inout NodeSettings) -> Void) throws {
        var candidate = NodeSettings()
        apply(&candidate)
        if let problem = candidate.problems(sampleRateHz: nil).first(where: { settings.contains($0.setting) }) {
            throw ValidationError(problem.description)
        }
    }
}
