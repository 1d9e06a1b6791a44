import Foundation
import CommentTUI
import ThreadModel
import ScrollEngine
#if canImport(Glibc)
import Glibc
#endif

/// The measured client of `homeBenchmarks`, a process of its own so that its memory and CPU
/// are the client's alone: `comment-tui-bench --home-only MODE USER THREADS [ROOM ...]`, its
/// accounts and caches in the environment's `XDG_*` folders (the parent's), its screen a
/// `HeadlessScreen` of 100x30.
///
/// `cold` (no home cache) and `cached` both time the start as `comment-tui` makes it
/// (`CommentClient.startedAtHome`) to the first frame whose rows on screen are those of the
/// whole list (names, previews and times in order; a cold start's counts may still be coming),
/// and to the frame that lists all `THREADS` with their counts; `cold` then
/// opens each `ROOM` from home (its newest message on screen), switches among the open ones
/// and home, reads its memory with the rooms listed and open, and its CPU time while the real
/// loop (`AppLoop`) idles at home for 10 s with the account's sync long-polling. Prints one line
/// of figures (see `HomeChildFigures`).
func runHomeOnly(arguments: [String]) {
    guard arguments.count >= 3, let threads = Int(arguments[2]) else { exit(2) }
    let measure = HomeChild(user: arguments[1], threads: threads)
    do {
        switch arguments[0] {
        case "cold": print(try measure.cold(rooms: Array(arguments.dropFirst(3))).line)
        case "cached": print(try measure.cached().line)
        default: exit(2)
        }
        // Without the atexit handlers: the account's sync thread may still be in a request
        // (stop() cancels it, without waiting), and OpenSSL's cleanup at exit under it crashed
        // a child (signal 11 in libcrypto) once. The figures are out; nothing else is to keep.
        fflush(nil)
        _exit(0)
    } catch {
        FileHandle.standardError.write(Data("home child: \(error)\n".utf8))
        _exit(1)
    }
}

/// What a child measured, as the line it prints and the parent reads.
struct HomeChildFigures {
    var firstScreen = 0.0
    /// Milliseconds to the frame listing every thread, nothing more coming.
    var wholeList = 0.0
    /// Whether the first full screen's status bar still said `connecting` (no sync answered).
    var beforeAnyAnswer = false
    var opens: [Double] = []
    var switches: [Double] = []
    var homeSwitches: [Double] = []
    /// Switches whose frame showed the room's newest message (as it was left).
    var switchesShowingNewest = 0
    var residentKilobytes = 0
    var peakKilobytes = 0
    var idleCPU = 0.0
    var idleSeconds = 0.0
    var idleFrames = 0

    var line: String {
        let fields: [String] = [
            "first=\(firstScreen)", "whole=\(wholeList)", "before=\(beforeAnyAnswer ? 1 : 0)",
            "opens=" + opens.map { "\($0)" }.joined(separator: ","),
            "switches=" + switches.map { "\($0)" }.joined(separator: ","),
            "home=" + homeSwitches.map { "\($0)" }.joined(separator: ","), "newest=\(switchesShowingNewest)",
            "rss=\(residentKilobytes)", "hwm=\(peakKilobytes)", "cpu=\(idleCPU)", "idle=\(idleSeconds)", "frames=\(idleFrames)",
        ]
        return fields.joined(separator: " ")
    }

    init() {}

    /// Reads a child's line back.
    init?(line: String) {
        var values: [String: String] = [:]
        for field in line.split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            values[String(parts[0])] = String(parts[1]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func list(_ key: String) -> [Double] { (values[key] ?? "").split(separator: ",").compactMap { Double($0) } }
        guard let first = values["first"].flatMap(Double.init) else { return nil }
        firstScreen = first
        wholeList = values["whole"].flatMap(Double.init) ?? 0
        beforeAnyAnswer = values["before"] == "1"
        opens = list("opens")
        switches = list("switches")
        homeSwitches = list("home")
        switchesShowingNewest = values["newest"].flatMap(Int.init) ?? 0
        residentKilobytes = values["rss"].flatMap(Int.init) ?? 0
        peakKilobytes = values["hwm"].flatMap(Int.init) ?? 0
        idleCPU = values["cpu"].flatMap(Double.init) ?? 0
        idleSeconds = values["idle"].flatMap(Double.init) ?? 0
        idleFrames = values["frames"].flatMap(Int.init) ?? 0
    }
}

/// The child's steps over one client.
final class HomeChild {
    let user: String
    let threads: Int
    let screen = HeadlessScreen(columns: 100, rows: 30)
    let origin = benchNow()
    var client: CommentClient!

    init(user: String, threads: Int) {
        self.user = user
        self.threads = threads
    }

    /// Seconds since the child started, on the monotonic clock the loop's time is.
    var now: ScrollInstant { ScrollInstant(seconds: Double(benchNow() - origin) / 1e9) }

    /// A start with no home cache, then rooms opened, switches, memory and idle CPU.
    func cold(rooms: [String]) throws -> HomeChildFigures {
        var figures = try start()
        for room in rooms { figures.opens.append(try open(room)) }
        let keys = rooms.map { ThreadKey.room(account: user, roomID: $0) }
        for n in 0..<50 {
            // Each switch to another open room, in turn: the frame is the measure.
            let key = keys[(n + 1) % keys.count]
            let start = benchNow()
            client.show(key)
            present()
            figures.switches.append(Double(benchNow() - start) / 1e6)
            guard client.place == .thread(key) else { throw BenchmarkFailure("switch \(n) did not show the room") }
            if screen.lines.contains(where: { $0.contains(Self.newest(in: key)) }) { figures.switchesShowingNewest += 1 }
            take(for: 0)
            if n % 5 == 4 {
                let home = benchNow()
                client.showHome()
                present()
                figures.homeSwitches.append(Double(benchNow() - home) / 1e6)
            }
        }
        figures.residentKilobytes = Self.status("VmRSS:")
        figures.peakKilobytes = Self.status("VmHWM:")
        try idle(into: &figures)
        client.close()
        return figures
    }

    /// A start from the home cache the parent's cold run left.
    func cached() throws -> HomeChildFigures {
        let figures = try start()
        client.close()
        return figures
    }

    /// From nothing to the frame listing every thread with nothing more coming, as the loop
    /// would: each wake of the client's descriptors taken, then a frame. The first screen is
    /// the first of those frames whose rows read as the last one's, counts aside.
    private func start() throws -> HomeChildFigures {
        let start = benchNow()
        client = try CommentClient.startedAtHome(environment: ProcessInfo.processInfo.environment, columns: 100, rows: 30)
        present()
        var frames = [(at: benchNow(), rows: Self.rows(of: screen.lines), connecting: isConnecting)]
        let full = "· \(threads) threads"
        let deadline = start + 120_000_000_000
        while !((screen.lines.first ?? "").contains(full) && !(screen.lines.first ?? "").contains("coming")) {
            guard benchNow() < deadline else { throw BenchmarkFailure("home never listed \(threads) threads: \(screen.lines.first ?? "")") }
            if take(for: 0.05) {
                present()
                frames.append((benchNow(), Self.rows(of: screen.lines), isConnecting))
            }
        }
        var figures = HomeChildFigures()
        let first = frames.first { $0.rows == frames.last?.rows } ?? frames[frames.count - 1]
        figures.firstScreen = Double(first.at - start) / 1e6
        figures.wholeList = Double(benchNow() - start) / 1e6
        figures.beforeAnyAnswer = first.connecting
        return figures
    }

    /// Whether the status bar says the account's sync has not answered yet.
    private var isConnecting: Bool { screen.lines.last?.contains("\(user) connecting") ?? false }

    /// The list's rows as a screen shows them, counts and times aside (each line up to its
    /// first run of spaces), without the header and the status bar.
    static func rows(of lines: [String]) -> [String] {
        lines.dropFirst().dropLast().map { line in
            String(line.components(separatedBy: "  ").filter { !$0.isEmpty }.first ?? "")
        }
    }

    /// Opens `room` from home (not open before, no copy of it cached): milliseconds from the
    /// ask to the frame showing its newest message.
    private func open(_ room: String) throws -> Double {
        client.showHome()
        present()
        let key = ThreadKey.room(account: user, roomID: room)
        let newest = Self.newest(in: key)
        let start = benchNow()
        client.show(key)
        present()
        let deadline = start + 60_000_000_000
        while !(client.place == .thread(key) && screen.lines.contains { $0.contains(newest) }) {
            guard benchNow() < deadline else { throw BenchmarkFailure("\(room) did not open to its newest message") }
            // As the loop: woken by the opener, else at the next frame's slot while something moves.
            if take(for: 1.0 / 60) || client.nextDeadline != nil { present() }
        }
        return Double(benchNow() - start) / 1e6
    }

    /// The real loop at home for 10 s with nothing typed: the CPU time of the whole process
    /// (its sync thread, the open rooms' work) and the frames drawn meanwhile.
    private func idle(into figures: inout HomeChildFigures) throws {
        client.showHome()
        present()
        // What opening and switching left (catch-ups, members) settles first.
        let settle = benchNow() + 3_000_000_000
        while benchNow() < settle { if take(for: 0.2) { present() } }
        let (input, keys) = try FileDescriptor.pipe()
        let loop = AppLoop(client: client, session: screen, input: input, signals: nil)
        _ = try loop.runOnce()  // the loop's first frame (a full one), before the measure
        let frames = screen.frameCount
        let cpu = Self.processCPUSeconds()
        let start = benchNow()
        let end = start + 10_000_000_000
        // Nothing wakes an idle loop but the sync: a focus report ends the wait at 10 s.
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { try? keys.writeAll(Array("\u{1b}[I".utf8)) }
        var drawn = screen.frameCount
        while true {
            let before = screen.frameCount
            _ = try loop.runOnce()
            // The focus report's turn draws a frame of its own: not one of the idle loop's.
            if benchNow() >= end { drawn = before; break }
        }
        figures.idleSeconds = Double(benchNow() - start) / 1e9
        figures.idleCPU = Self.processCPUSeconds() - cpu
        figures.idleFrames = drawn - frames
        keys.close()
        input.close()
    }

    /// Takes what the client's descriptors announce within `timeout` seconds; true if any woke.
    @discardableResult
    func take(for timeout: Double) -> Bool {
        let ready = (try? Poll.readable(client.updateDescriptors, timeout: timeout)) ?? []
        guard !ready.isEmpty else { return false }
        client.wallTime = Date()
        client.descriptorsReady(ready, at: now)
        return true
    }

    /// One frame as the loop presents it (a switch paints the screen whole).
    func present() {
        client.wallTime = Date()
        client.advance(to: now)
        let frame = client.render()
        screen.present(frame, full: client.switchedSinceLastFrame)
        client.didPresent(frame)
    }

    /// The body of a room's newest message, as the parent sent it.
    static func newest(in key: ThreadKey) -> String {
        guard case .room(_, let roomID) = key else { return "" }
        return HomeBenchmarkRooms.newestBody(roomID)
    }

    /// A figure in kB from /proc/self/status (`VmRSS:`, `VmHWM:`).
    static func status(_ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return -1 }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
    }

    /// CPU time of the whole process (every thread), in seconds.
    static func processCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
