// Declarations only; libFuzzer (-sanitize=fuzzer) provides the code.
