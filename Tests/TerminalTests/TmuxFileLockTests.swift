import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// The real client while another process holds the thread file's lock, as every `post` does
/// while it indexes a big file (issue 22, item 3): keys echo at once, the comment shows as
/// pending and lands when the lock is let go, and SIGTERM ends the client at once, the comment
/// kept as the draft.
final class TmuxFileLockTests: XCTestCase {
    /// The lock, held from this test's process (another process than the client's).
    private final class HeldLock {
        private var fd: Int32
        init(path: String) throws {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0, flock(fd, LOCK_EX) == 0 else { throw TmuxTestError("cannot lock \(path)") }
        }
        func release() {
            if fd >= 0 { close(fd) }
            fd = -1
        }
        deinit { release() }
    }

    /// A tmux session with the client open on a new thread file as ann.
    private func openClient() throws -> (TmuxSession, String) {
        let tmux = try TmuxSession()
        let file = tmux.home.appendingPathComponent("locked.jsonl").path
        try tmux.run("\(TmuxSession.clientPath) new \(file) --title 'Locked thread' --as ann --name Ann; echo NEW=$?")
        try tmux.waitFor("the new thread") { $0.contains("NEW=0") }
        try tmux.run("\(TmuxSession.clientPath) \(file) --as ann; echo EXIT=$?")
        try tmux.waitFor("the client") { $0.contains { $0.contains("@ann · locked.jsonl") } }
        return (tmux, file)
    }

    private func bodies(_ file: String) throws -> [String] { try ThreadFile.read(path: file).thread.comments.map(\.body) }

    func testKeysEchoWhileAnotherProcessHoldsTheLockAndTheCommentLandsOnRelease() throws {
        let (tmux, file) = try openClient()
        let lock = try HeldLock(path: file)
        try tmux.literal("held back")
        try tmux.keys("Enter")
        try tmux.waitFor("the comment shown as pending", timeout: 3) { $0.contains { $0.contains("sending…") } }
        let clock = ContinuousClock()
        let typed = clock.now
        try tmux.literal("still typing")
        try tmux.waitFor("the keys' echo while the lock is held", timeout: 3) { $0.contains("› still typing") }
        print("key echo while another process holds the lock: \(clock.now - typed) (tmux polling included)")
        XCTAssertFalse(try bodies(file).contains("held back"))

        lock.release()
        try tmux.waitFor("the comment posted once the lock is free") { screen in
            screen.contains { $0.contains("posted") } && !screen.contains { $0.contains("sending…") }
        }
        XCTAssertEqual(try bodies(file), ["held back"])
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }

    func testSIGTERMWhileTheLockIsHeldExitsAtOnceAndKeepsTheCommentAsTheDraft() throws {
        let (tmux, file) = try openClient()
        let lock = try HeldLock(path: file)
        try tmux.literal("kept back")
        try tmux.keys("Enter")
        // Signals are handled before input: signal once the client has the comment.
        try tmux.waitFor("the comment waiting for the lock") { $0.contains { $0.contains("sending…") } }
        let clock = ContinuousClock()
        let signalled = clock.now
        kill(try tmux.supervisorPID(), SIGTERM)
        try tmux.waitFor("the client's exit while the lock is held", timeout: 3) { $0.contains("EXIT=0") }
        print("exit after SIGTERM while another process holds the lock: \(clock.now - signalled) (tmux polling included)")
        lock.release()
        XCTAssertEqual(try bodies(file), [], "the client is gone: nothing lands later")

        try tmux.run("\(TmuxSession.clientPath) \(file) --as ann; echo EXIT=$?")
        try tmux.waitFor("the unsent comment back as the draft") { $0.contains { $0.contains("draft restored") } && $0.contains("› kept back") }
        try tmux.keys("C-c")
    }

    func testAClientKilledWhileItsCommentWaitsForTheLockLosesNothing() throws {
        let (tmux, file) = try openClient()
        let lock = try HeldLock(path: file)
        try tmux.literal("survives the kill")
        try tmux.keys("Enter")
        try tmux.waitFor("the comment shown as pending", timeout: 3) { $0.contains { $0.contains("sending…") } }
        kill(try tmux.workerPID(), SIGKILL)
        try tmux.waitFor("the supervisor's report") { $0.contains { $0.contains("EXIT=") } }
        lock.release()
        XCTAssertEqual(try bodies(file), [], "the killed client wrote nothing")

        try tmux.run("\(TmuxSession.clientPath) \(file) --as ann; echo EXIT=$?")
        try tmux.waitFor("the comment sent again and posted") { screen in
            screen.contains { $0.contains("   survives the kill") } && !screen.contains { $0.contains("sending…") }
        }
        XCTAssertEqual(try bodies(file), ["survives the kill"], "appended once, by the next start")
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
        // A third start finds nothing left to send.
        try tmux.run("\(TmuxSession.clientPath) \(file) --as ann; echo EXIT=$?")
        try tmux.waitFor("the client again") { $0.contains { $0.contains("@ann · locked.jsonl") } }
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.filter { $0.contains("EXIT=0") }.count >= 2 }
        XCTAssertEqual(try bodies(file), ["survives the kill"])
    }
}
