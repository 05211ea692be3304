import ToneModem

/// A runtime failure of encode/decode, printed as one line.
public struct ModemCommandError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// `body`'s result; a cable modulator's refusal to set up
    /// (`CableModulator.SetupError`: a rate or plan the cable cannot use) becomes
    /// this error, its sentence unchanged.
    public static func cableSetup<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CableModulator.SetupError {
            throw ModemCommandError(error.description)
        }
    }
}
