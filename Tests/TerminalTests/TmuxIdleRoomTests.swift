import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An open room nobody writes in costs no CPU once it has opened (issue 36: ~85 % of a core
/// for 30 s after each room open), measured on the client's process in a real terminal.
final class TmuxIdleRoomTests: RunSynapseTestCase {
    func testAnIdleOpenRoomUsesAlmostNoCPU() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann", displayName: "Ann")
        let roomID = try server.client(for: ann).createRoom(name: "Quiet room", preset: .publicChat, alias: "quiet-\(suffix)")
        try server.client(for: ann).sendText(roomID: roomID, body: "The post")
        for n in 1...5 { try server.client(for: ann).sendText(roomID: roomID, body: "comment \(n)") }

        let terminal = try TmuxSession(columns: 90, rows: 20)
        try terminal.run("printf '%s\\n' 'pw-ann' | \(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user ann-\(suffix) --password-stdin")
        try terminal.waitFor("ann to log in") { $0.contains { $0.contains("logged in as @ann-\(suffix):") } }
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:#quiet-\(suffix):\(server.serverName)'; echo EXIT=$?")
        try terminal.waitFor("the room to open live", timeout: 30) { $0.last?.split(separator: " ").contains("live") == true }
        // The opening settles (its first syncs, the first frames) before the idle time counts.
        let (used, elapsed) = try Self.cpuAfterSettling(try terminal.workerPID())
        // Generous for a loaded machine: an idle room should be near 0 %.
        XCTAssertLessThan(used / elapsed, 0.2, "the idle client used \(used) s of CPU in \(elapsed) s")

        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }

    /// The CPU a process used over `seconds` (and the seconds that passed), measured after
    /// `settling` seconds: the opening's first frames and syncs are not idle time.
    static func cpuAfterSettling(_ pid: Int32, settling: Double = 3, seconds: Double = 5) throws -> (used: Double, elapsed: Double) {
        Thread.sleep(forTimeInterval: settling)
        let start = try cpuSeconds(of: pid)
        let began = Date()
        Thread.sleep(forTimeInterval: seconds)
        return (try cpuSeconds(of: pid) - start, Date().timeIntervalSince(began))
    }

    /// User and system CPU time of a process (all its threads), in seconds.
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command's closing parenthesis: state is the 3rd, utime the 14th, stime the 15th.
        guard let close = stat.lastIndex(of: ")") else { throw TmuxTestError("unreadable stat: \(stat)") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw TmuxTestError("unreadable stat: \(stat)")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
