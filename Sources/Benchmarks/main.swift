// comment-tui-bench: speed and memory figures, printed as a table.
// Run with `swift run -c release comment-tui-bench`.

import Foundation

// `comment-tui-bench --index-only PATH`: the child process that `threadIndexBenchmarks` starts,
// so that peak memory (VmHWM) counts one client opening a thread and nothing else.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--index-only" {
    runIndexOnly(path: CommandLine.arguments[2])
    exit(0)
}

// `comment-tui-bench --scroll-room-only URL ROOM USER TOKEN`: the reader that
// `matrixScaleBenchmarks` starts, so that VmHWM counts one client paging through a big room.
if CommandLine.arguments.count == 6, CommandLine.arguments[1] == "--scroll-room-only" {
    runScrollRoomOnly(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

// `comment-tui-bench --huge-only PATH`: the child that `scaleBenchmarks` starts, so that VmHWM
// counts one client showing a huge comment.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--huge-only" {
    runHugeOnly(path: CommandLine.arguments[2])
    exit(0)
}

// `comment-tui-bench --home-only MODE USER THREADS [ROOM ...]`: the client that `homeBenchmarks`
// starts, so that its memory and CPU time are the client's alone.
if CommandLine.arguments.count >= 5, CommandLine.arguments[1] == "--home-only" {
    runHomeOnly(arguments: Array(CommandLine.arguments.dropFirst(2)))
}

// `comment-tui-bench --posts-only USER ROOM ROOT NEWEST`: the client that `matrixPostsBenchmarks`
// starts, so that its memory is the client's alone.
if CommandLine.arguments.count == 6, CommandLine.arguments[1] == "--posts-only" {
    runPostsOnly(arguments: Array(CommandLine.arguments.dropFirst(2)))
}

// `comment-tui-bench --reactions-only PATH`: the child that `reactionFileRows` starts, so that
// VmHWM counts one client opening the hostile reaction file.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--reactions-only" {
    runReactionsOnly(path: CommandLine.arguments[2])
    exit(0)
}

// `comment-tui-bench --mentions-only PATH HANDLE WAIT`: the client that `mentionBenchmarks` starts,
// so that VmHWM counts one client opening a thread of many users and its first `@`.
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "--mentions-only" {
    runMentionsOnly(arguments: Array(CommandLine.arguments.dropFirst(2)))
}

// `comment-tui-bench [GROUP ...]` runs only the named groups (all without arguments).
let groups: [(name: String, run: () -> [BenchmarkRow])] = [
    ("scroll", scrollBenchmarks),
    ("feel", wheelFeelBenchmarks),
    ("render", renderBenchmarks),
    ("effects", effectBenchmarks),
    ("layout", { [commentLayoutBenchmark()] }),
    ("reactions", reactionBenchmarks),
    ("index", threadIndexBenchmarks),
    ("first-frame", firstFrameBenchmarks),
    ("post", postBenchmarks),
    ("scale", scaleBenchmarks),
    ("flags", flagBenchmarks),
    ("search", searchBenchmarks),
    ("markup", markupBenchmarks),
    ("cmark", cmarkBenchmarks),
    ("composer", composerBenchmarks),
    ("composer-keys", composerKeyBenchmarks),
    ("mentions", mentionBenchmarks),
    ("members", memberStormBenchmarks),
    ("matrix", matrixBenchmarks),
    ("home", homeBenchmarks),
    ("crypto", cryptoBenchmarks),
    ("crypto-store", cryptoStoreBenchmarks),
    // Not run by default: their first run fills a big room (most of an hour, half an hour, minutes).
    ("matrix-scale", matrixScaleBenchmarks),
    ("posts", matrixPostsBenchmarks),
    ("matrix-encrypted", matrixEncryptedBenchmarks),
    ("matrix-backup", matrixBackupBenchmarks),
]
let wanted = Set(CommandLine.arguments.dropFirst())
if let unknown = wanted.first(where: { name in !groups.contains { $0.name == name } }) {
    FileHandle.standardError.write(Data("unknown group \(unknown); groups: \(groups.map(\.name).joined(separator: " "))\n".utf8))
    exit(2)
}
var table = BenchmarkTable()
for group in groups where wanted.isEmpty ? !["matrix-scale", "posts", "matrix-encrypted", "matrix-backup"].contains(group.name) : wanted.contains(group.name) { table.add(group.run()) }
table.print()
