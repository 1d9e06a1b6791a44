import CommentTUI

/// Rendering figures: filled in by the renderer work.
func renderBenchmarks() -> [BenchmarkRow] { [] }
