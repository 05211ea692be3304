/// A number as ToneNode writes it in sentences (messages, control lines,
/// OSC echoes): whole values without a trailing `.0` (`440`, not `440.0`),
/// everything else in Swift's shortest form (`440.5`, `1e-05`, `inf`, `nan`).
///
/// Every module that puts a number into text a person reads uses this one
/// function, so `freq 440` reads the same on stderr, over OSC and in NSM.
/// Values of 1e15 and beyond keep the shortest form, where an `Int` would
/// lose digits or trap.
public func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
