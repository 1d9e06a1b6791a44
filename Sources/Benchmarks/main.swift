// comment-tui-bench: speed and memory figures, printed as a table.
// Run with `swift run -c release comment-tui-bench`.

import Foundation

// `comment-tui-bench --index-only PATH`: the child process that `threadIndexBenchmarks` starts,
// so that peak memory (VmHWM) counts one client opening a thread and nothing else.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--index-only" {
    runIndexOnly(path: CommandLine.arguments[2])
    exit(0)
}

var table = BenchmarkTable()
table.add(scrollBenchmarks())
table.add(renderBenchmarks())
table.add([commentLayoutBenchmark()])
table.add(threadIndexBenchmarks())
table.add(markupBenchmarks())
table.add(mentionBenchmarks())
table.print()
