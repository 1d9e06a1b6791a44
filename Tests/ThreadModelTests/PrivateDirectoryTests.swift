import Foundation
import XCTest
@testable import ThreadModel
import PlantedFileTestSupport

/// What someone who can write in a state directory plants there (a link, a FIFO, a directory,
/// another user's file, a hard link) is refused or replaced, and what it points to is untouched.
final class PrivateDirectoryTests: XCTestCase {
    /// A scratch folder: `state` (the private directory, not yet made) and `victim` (a file
    /// outside it, 0644, that planted links point to).
    private func scratch() throws -> (state: String, victim: PlantedVictim) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("private-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        return (root + "/state", try PlantedVictim(at: root + "/victim"))
    }

    func testReplaceOverAPlantedLinkReplacesTheLinkNotItsTarget() throws {
        let (state, victim) = try scratch()
        let folder = try PrivateDirectory(state)
        try FileManager.default.createSymbolicLink(atPath: folder.path(of: "read.json"), withDestinationPath: victim.path)
        try folder.replace("read.json", with: Array("mine".utf8), synchronized: false)
        try victim.assertUntouched()
        try assertPrivateRegularFile(folder.path(of: "read.json"), holding: "mine")
    }

    func testReplaceNeverUsesAPredictableTemporaryName() throws {
        let (state, victim) = try scratch()
        let folder = try PrivateDirectory(state)
        // Every name the old client would have used: `<file>.tmp-<pid>`, for this pid and the next.
        for pid in getpid()..<(getpid() + 50) {
            try FileManager.default.createSymbolicLink(atPath: folder.path(of: "draft.json.tmp-\(pid)"), withDestinationPath: victim.path)
        }
        try folder.replace("draft.json", with: Array("mine".utf8), synchronized: true)
        try victim.assertUntouched()
        try assertPrivateRegularFile(folder.path(of: "draft.json"), holding: "mine")
        let names = try FileManager.default.contentsOfDirectory(atPath: state)
        XCTAssertEqual(names.filter { !$0.hasPrefix("draft.json.tmp-") }, ["draft.json"], "no temporary file is left behind")
    }

    func testAppendAndReadRefuseALinkAFIFOAndADirectory() throws {
        let (state, victim) = try scratch()
        let folder = try PrivateDirectory(state)
        try FileManager.default.createSymbolicLink(atPath: folder.path(of: "link"), withDestinationPath: victim.path)
        XCTAssertEqual(mkfifo(folder.path(of: "fifo"), 0o600), 0)
        try FileManager.default.createDirectory(atPath: folder.path(of: "folder"), withIntermediateDirectories: false)
        let expected = ["link": "symbolic link", "fifo": "FIFO", "folder": "directory"]
        for (name, words) in expected {
            // A FIFO must be refused at once, never waited on: a blocked open would hang here.
            XCTAssertThrowsError(try folder.append(name, Array("secret draft".utf8)), name) { error in
                XCTAssertTrue("\(error)".hasPrefix(folder.path(of: name) + ": "), "\(error)")
                XCTAssertTrue("\(error)".contains(words), "\(error)")
            }
            XCTAssertThrowsError(try folder.read(name), name) { XCTAssertTrue("\($0)".contains(words), "\($0)") }
        }
        try victim.assertUntouched()
    }

    func testAnAppendToAHardLinkedFileGivesTheFileANameOfItsOwn() throws {
        let (state, victim) = try scratch()
        let folder = try PrivateDirectory(state)
        XCTAssertEqual(link(victim.path, folder.path(of: "outbox.jsonl")), 0)
        try folder.append("outbox.jsonl", Array("queued\n".utf8))
        try victim.assertUntouched(links: 1)
        XCTAssertEqual(try folder.read("outbox.jsonl"), Array(victim.bytes) + Array("queued\n".utf8))
        XCTAssertEqual(try mode(of: folder.path(of: "outbox.jsonl")), 0o600)
    }

    func testReplaceOverAFIFOOrAHardLinkReplacesItAndOverADirectoryIsRefused() throws {
        let (state, victim) = try scratch()
        let folder = try PrivateDirectory(state)
        XCTAssertEqual(mkfifo(folder.path(of: "fifo"), 0o600), 0)
        XCTAssertEqual(link(victim.path, folder.path(of: "hard")), 0)
        try FileManager.default.createDirectory(atPath: folder.path(of: "folder"), withIntermediateDirectories: false)
        try folder.replace("fifo", with: Array("a".utf8), synchronized: false)
        try folder.replace("hard", with: Array("b".utf8), synchronized: true)
        XCTAssertThrowsError(try folder.replace("folder", with: Array("c".utf8), synchronized: false)) {
            XCTAssertEqual("\($0)", "\(folder.path(of: "folder")): is a directory, not a regular file")
        }
        XCTAssertEqual(try folder.read("fifo"), Array("a".utf8))
        XCTAssertEqual(try folder.read("hard"), Array("b".utf8))
        try victim.assertUntouched(links: 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state).sorted(), ["fifo", "folder", "hard"], "no temporary left")
    }

    func testLeftoverTemporariesOfACrashAreRemovedOnceOld() throws {
        let (state, _) = try scratch()
        let folder = try PrivateDirectory(state)
        for name in [".accounts.json.old1.tmp", ".accounts.json.new1.tmp", ".other.json.old2.tmp"] {
            try Data("token".utf8).write(to: URL(fileURLWithPath: folder.path(of: name)))
        }
        let hourAgo = Date().addingTimeInterval(-3600)
        for name in [".accounts.json.old1.tmp", ".other.json.old2.tmp"] {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: folder.path(of: name))
        }
        try folder.removeLeftovers(of: "accounts.json")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state).sorted(), [".accounts.json.new1.tmp", ".other.json.old2.tmp"],
                       "only the old leftovers of that file go; one being written now stays")
    }

    func testAFileOfAnotherUserIsRefusedAndReplacedWithoutBeingWritten() throws {
        // Only root can make a file of another user; CI runs as root.
        guard geteuid() == 0 else { return }
        let (state, _) = try scratch()
        let folder = try PrivateDirectory(state)
        let theirs = folder.path(of: "outbox.jsonl")
        try Data("theirs\n".utf8).write(to: URL(fileURLWithPath: theirs))
        XCTAssertEqual(chown(theirs, 4242, 4242), 0)
        XCTAssertThrowsError(try folder.append("outbox.jsonl", Array("mine".utf8))) {
            XCTAssertTrue("\($0)".contains("belongs to user 4242"), "\($0)")
        }
        XCTAssertThrowsError(try folder.read("outbox.jsonl"))
        XCTAssertEqual(FileManager.default.contents(atPath: theirs), Data("theirs\n".utf8))
        try folder.replace("outbox.jsonl", with: Array("mine".utf8), synchronized: false)
        try assertPrivateRegularFile(theirs, holding: "mine")
    }

    func testADirectoryOthersCanWriteOrOfAnotherUserOrLinkedByThemIsRefusedByName() throws {
        let (state, victim) = try scratch()
        let root = (state as NSString).deletingLastPathComponent
        let shared = root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(shared, 0o1777), 0)
        XCTAssertThrowsError(try PrivateDirectory(shared)) {
            XCTAssertEqual("\($0)", "\(shared): can be written by others (mode 1777); comment-tui keeps its files only in a directory only you can write: chmod 700 it")
        }
        // Writable by the user's own group (umask 002): narrowed, as an older version made it.
        XCTAssertEqual(chmod(shared, 0o775), 0)
        XCTAssertNoThrow(try PrivateDirectory(shared))
        XCTAssertEqual(try mode(of: shared), 0o700)
        XCTAssertEqual(chmod(victim.path, 0o644), 0)
        XCTAssertThrowsError(try PrivateDirectory(victim.path)) { XCTAssertEqual("\($0)", "\(victim.path): is not a directory") }
        // A link of the user's to a directory of theirs (GNU stow folds folders so) is theirs.
        let elsewhere = root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: state, withDestinationPath: elsewhere)
        try PrivateDirectory(state).replace("read.json", with: Array("{}".utf8), synchronized: false)
        XCTAssertEqual(FileManager.default.contents(atPath: elsewhere + "/read.json"), Data("{}".utf8))
        // Only root can make files of another user; CI runs as root.
        if geteuid() == 0 {
            XCTAssertEqual(lchown(state, 4242, 4242), 0)
            XCTAssertThrowsError(try PrivateDirectory(state)) {
                XCTAssertTrue("\($0)".hasPrefix("\(state): is a symbolic link of user 4242, not yours"), "\($0)")
            }
            XCTAssertEqual(chown(shared, 0, 4242), 0)
            XCTAssertEqual(chmod(shared, 0o770), 0)
            XCTAssertThrowsError(try PrivateDirectory(shared), "writable by another group") {
                XCTAssertTrue("\($0)".contains("can be written by others (mode 770)"), "\($0)")
            }
            XCTAssertEqual(chown(shared, 4242, 4242), 0)
            XCTAssertEqual(chmod(shared, 0o700), 0)
            XCTAssertThrowsError(try PrivateDirectory(shared)) { XCTAssertTrue("\($0)".contains("belongs to user 4242, not to you"), "\($0)") }
        }
        try victim.assertUntouched()
    }

    func testModesArePrivateWhateverTheUmaskAndAnOlderReadableDirectoryIsNarrowed() throws {
        let (state, _) = try scratch()
        // A umask that leaves even the user no read: files are still 0600, the user's to read.
        let old = umask(0o277)
        defer { umask(old) }
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let folder = try PrivateDirectory(state)
        XCTAssertEqual(try mode(of: state), 0o700, "readable by all narrowed to the user's")
        try folder.append("outbox.jsonl", Array("one\n".utf8))
        try folder.replace("read.json", with: Array("{}".utf8), synchronized: false)
        XCTAssertEqual(try mode(of: folder.path(of: "outbox.jsonl")), 0o600)
        XCTAssertEqual(try mode(of: folder.path(of: "read.json")), 0o600)
        XCTAssertEqual(chmod(folder.path(of: "outbox.jsonl"), 0o644), 0)
        try folder.append("outbox.jsonl", Array("two\n".utf8))
        XCTAssertEqual(try mode(of: folder.path(of: "outbox.jsonl")), 0o600, "a file an older version left readable is made private")
        XCTAssertEqual(try folder.read("outbox.jsonl"), Array("one\ntwo\n".utf8))
        XCTAssertEqual(try folder.read("read.json"), Array("{}".utf8))
        XCTAssertNil(try folder.read("missing"))
    }

    func testSetAsideAndRemoveMoveOrRemoveALinkNeverItsTarget() throws {
        let (state, victim) = try scratch()
        let folder = try PrivateDirectory(state)
        try FileManager.default.createSymbolicLink(atPath: folder.path(of: "cache.jsonl"), withDestinationPath: victim.path)
        let aside = try folder.setAside("cache.jsonl")
        XCTAssertEqual(aside, folder.path(of: "cache.jsonl.broken-1"))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: aside), victim.path, "the link itself was moved")
        try folder.remove("cache.jsonl.broken-1")
        try folder.remove("cache.jsonl.broken-1")
        try victim.assertUntouched()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state), [])
    }

    private func mode(of path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func assertPrivateRegularFile(_ path: String, holding text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0, file: file, line: line)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFREG, "a regular file, not a link", file: file, line: line)
        XCTAssertEqual(status.st_mode & 0o7777, 0o600, file: file, line: line)
        XCTAssertEqual(status.st_uid, geteuid(), file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data(text.utf8), file: file, line: line)
    }
}
