import Testing

extension JackServerTests {
    /// Many nodes and the ways a studio treats them, with the server
    /// stopped, killed or overrun, and stdout that cannot be written: the
    /// claims of docs/engineering/reliability.md that need neither gdb nor a uid of
    /// their own (those: `scripts/stress`). Short by default (CI); long,
    /// for a release, with `TONENODE_STRESS=long` (`StressLength`).
    /// `swift test --skip-build --filter Stress` runs them alone.
    @Suite("Stress")
    struct StressTests {}
}
