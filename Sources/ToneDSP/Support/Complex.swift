#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A complex number in double precision: the small set of operations the
/// measurement and modem maths use (one type for both). `@inlinable`: the
/// modem (ToneModem) calls these in its inner loops from another module.
public struct Complex: Sendable, Equatable {
    public var re: Double
    public var im: Double

    @inlinable public init(_ re: Double, _ im: Double) {
        self.re = re
        self.im = im
    }

    @inlinable public var magnitudeSquared: Double { re * re + im * im }
    @inlinable public var magnitude: Double { magnitudeSquared.squareRoot() }
    @inlinable public var phase: Double { atan2(im, re) }
    @inlinable public var conjugate: Complex { Complex(re, -im) }

    @inlinable public static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }

    @inlinable public static func * (a: Complex, b: Complex) -> Complex {
        Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
    }

    /// `a / b`, or 0 when `b` is 0.
    @inlinable public static func / (a: Complex, b: Complex) -> Complex {
        let d = b.magnitudeSquared
        guard d > 0 else { return Complex(0, 0) }
        return Complex((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }

    /// `self` to a non-negative integer power, by repeated multiplication.
    @inlinable public func power(_ n: Int) -> Complex {
        var result = Complex(1, 0)
        for _ in 0..<max(0, n) { result = result * self }
        return result
    }
}
