import ArgumentParser

/// `tonenode mesure …`: a first word that names no subcommand is one line,
/// "Unknown subcommand 'mesure'. Did you mean 'measure'?", as ArgumentParser
/// already says for a mistyped option (it would say "Unexpected argument" or
/// complain about the first option instead). Checked before parsing; any
/// word that is a subcommand, `help` or an option leaves parsing as it was.
enum SubcommandSuggestion {
    /// The line for `arguments` (without the program name), or nil when the
    /// first word is an option, a subcommand or `help`, or there is none.
    static func problem(arguments: [String], subcommands: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-"), !word.isEmpty,
              !subcommands.contains(word), word != "help" else { return nil }
        if let closest = closest(to: word, among: subcommands) {
            return "Unknown subcommand '\(word)'. Did you mean '\(closest)'?"
        }
        return "Unknown subcommand '\(word)'. Subcommands: \(subcommands.joined(separator: ", "))"
    }

    /// The subcommands of `command` by the names a command line uses (aliases too).
    static func names(of command: ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.flatMap { sub in
            [sub.configuration.commandName ?? sub._commandName] + sub.configuration.aliases
        }
    }

    /// The name nearest `word`: another case, a prefix of at least three
    /// letters, or at most one edit (two for names of five letters or more;
    /// a swap of neighbours is one edit). Nil when none is that near.
    static func closest(to word: String, among names: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        for name in names {
            let candidate = Array(name.lowercased())
            var distance = editDistance(typed, candidate)
            if typed.count >= 3 && candidate.starts(with: typed) { distance = min(distance, 1) }
            let limit = candidate.count >= 5 ? 2 : 1
            guard distance <= limit, distance < (best?.distance ?? .max) else { continue }
            best = (name, distance)
        }
        return best?.name
    }

    /// Insertions, deletions, substitutions and swaps of neighbours that turn `a` into `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
