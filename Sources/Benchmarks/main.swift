// comment-tui-bench: speed and memory figures, printed as a table.
// Run with `swift run -c release comment-tui-bench`.

var table = BenchmarkTable()
table.add(scrollBenchmarks())
table.add(renderBenchmarks())
table.add(markupBenchmarks())
table.print()
