import ArgumentParser
import ToneCore

/// An option's name and help, built from its parameter's declaration (ToneCore
/// does not know ArgumentParser): `@Option(name: p.optionName, help: p.argumentHelp) var x = p.defaultValue`.
extension ParameterDeclaration {
    /// The long name: the flag without its dashes (`--fft-size` → `fft-size`).
    public var longName: NameSpecification.Element { .customLong(String((flag ?? name).drop { $0 == "-" })) }

    /// The option's only name, its long one.
    public var optionName: NameSpecification { [longName] }

    /// The help `--help` shows, with the value's placeholder.
    public var argumentHelp: ArgumentHelp { ArgumentHelp(help, valueName: valueName) }
}

extension Parameter where Value == Double {
    /// A message's level against this declaration's range (`--level`, `--send-level`).
    public func validateLevel(dBFS levelDBFS: Double) throws {
        guard accepts(levelDBFS) else {
            throw ValidationError("\(commandLineName) must be between \(rangeText("and")) dBFS")
        }
    }
}

// MARK: - Options and flags declared by a parameter

extension Option where Value: ExpressibleByArgument & Sendable {
    /// The option `parameter` declares: its flag, help and default
    /// (`@Option(Parameters.frequency, parsing: .unconditional) var freq: Double`).
    public init(_ parameter: Parameter<Value>, parsing: SingleValueParsingStrategy = .next) {
        self.init(wrappedValue: parameter.defaultValue, name: parameter.optionName, parsing: parsing,
                  help: parameter.argumentHelp)
    }
}

extension Option {
    /// A repeatable option `parameter` declares (`--connect-in PORT`, once per port).
    public init<Element: ExpressibleByArgument & Sendable>(_ parameter: Parameter<[Element]>) where Value == [Element] {
        self.init(wrappedValue: parameter.defaultValue, name: parameter.optionName, parsing: .singleValue,
                  help: parameter.argumentHelp)
    }
}

extension Flag where Value == Bool {
    /// The on/off flag `parameter` declares.
    public init(_ parameter: Parameter<Bool>) {
        self.init(wrappedValue: parameter.defaultValue, name: parameter.optionName, help: parameter.argumentHelp)
    }
}
