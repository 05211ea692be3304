/// A control port of the LV2 bundle that is a parameter of the node (`tonenode.ttl`).
public struct LV2Port: Sendable, Equatable {
    public enum Plugin: Sendable { case analyzer, generator }
    public let plugin: Plugin
    public let symbol: String
    /// Whether the port's bounds are the declaration's (each finite one).
    public let sharesRange: Bool

    public static func analyzer(_ symbol: String, sharesRange: Bool = false) -> LV2Port {
        LV2Port(plugin: .analyzer, symbol: symbol, sharesRange: sharesRange)
    }

    public static func generator(_ symbol: String, sharesRange: Bool = false) -> LV2Port {
        LV2Port(plugin: .generator, symbol: symbol, sharesRange: sharesRange)
    }
}
