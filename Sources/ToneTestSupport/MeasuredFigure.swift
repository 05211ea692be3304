/// Prints a figure a test measured, tagged so a test log can be searched for
/// every number behind a README claim (`grep '\[measured\]'`).
public func report(_ line: String) { print("[measured] \(line)") }
