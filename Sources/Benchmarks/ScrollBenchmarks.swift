import ScrollEngine

/// Scroll engine figures: filled in by the ScrollEngine work.
func scrollBenchmarks() -> [BenchmarkRow] { [] }
