import Foundation
import CommentTUI
#if canImport(Glibc)
import Glibc
#endif

/// The measured client of `matrixPostsBenchmarks`, a process of its own so that its memory is
/// the client's alone: `comment-tui-bench --posts-only USER ROOM ROOT NEWEST`, its account and
/// caches in the environment's `XDG_*` folders, its screen a `HeadlessScreen` of 100x30.
///
/// Starts at home as `comment-tui` does and times the first frame listing the room's posts
/// under it (`↳` rows and how many more), then opens the post `ROOT` from home and times the
/// frame showing its newest reply (`NEWEST`, a piece of its text). Prints
/// `first=<ms> open=<ms> hwm=<kB>`.
func runPostsOnly(arguments: [String]) {
    guard arguments.count == 4 else { exit(2) }
    let child = HomeChild(user: arguments[0], threads: 0)
    do {
        let start = benchNow()
        child.client = try CommentClient.startedAtHome(environment: ProcessInfo.processInfo.environment, columns: 100, rows: 30)
        child.present()
        try child.waitFor("home to list the room's posts", from: start) { lines in
            lines.contains { $0.contains("↳ Post") } && lines.contains { $0.contains("more posts") }
        }
        let first = Double(benchNow() - start) / 1e6
        let key = ThreadKey.post(account: arguments[0], roomID: arguments[1], root: arguments[2])
        let asked = benchNow()
        child.client.show(key)
        child.present()
        try child.waitFor("the post to open to its newest reply", from: asked) { lines in
            child.client.place == .thread(key) && lines.contains { $0.contains(arguments[3]) }
        }
        let open = Double(benchNow() - asked) / 1e6
        print("first=\(first) open=\(open) hwm=\(HomeChild.status("VmHWM:"))")
        fflush(nil)
        // As the home child: without the atexit handlers, under a sync thread still in a request.
        _exit(0)
    } catch {
        FileHandle.standardError.write(Data("posts child: \(error)\n".utf8))
        _exit(1)
    }
}

extension HomeChild {
    /// Takes wakes and presents frames, as the loop would, until a frame satisfies `done`
    /// (within a minute of `start`).
    func waitFor(_ what: String, from start: UInt64, _ done: ([String]) -> Bool) throws {
        while !done(screen.lines) {
            guard benchNow() < start + 60_000_000_000 else { throw BenchmarkFailure("never saw \(what): \(screen.lines)") }
            if take(for: 1.0 / 60) || client.nextDeadline != nil { present() }
        }
    }
}
