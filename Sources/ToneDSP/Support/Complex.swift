#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A complex number in double precision: the small set of operations the
/// measurement and modem maths use (one type for both).
public struct Complex: Sendable, Equatable {
    public var re: Double
    public var im: Double

    public init(_ re: Double, _ im: Double) {
        self.re = re
        self.im = im
    }

    public var magnitudeSquared: Double { re * re + im * im }
    public var magnitude: Double { magnitudeSquared.squareRoot() }
    public var phase: Double { atan2(im, re) }
    public var conjugate: Complex { Complex(re, -im) }

    public static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }

    public static func * (a: Complex, b: Complex) -> Complex {
        Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
    }

    /// `a / b`, or 0 when `b` is 0.
    public static func / (a: Complex, b: Complex) -> Complex {
        let d = b.magnitudeSquared
        guard d > 0 else { return Complex(0, 0) }
        return Complex((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }

    /// `self` to a non-negative integer power, by repeated multiplication.
    public func power(_ n: Int) -> Complex {
        var result = Complex(1, 0)
        for _ in 0..<max(0, n) { result = result * self }
        return result
    }
}
