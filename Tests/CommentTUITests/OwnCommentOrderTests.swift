import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI

/// The reader's own comments sit where they landed in the thread file, not where they were sent
/// (issue 22, item 12): the client's order is the file's order, with other writers appending at once.
final class OwnCommentOrderTests: XCTestCase {
    /// Positions where the client's comments and the file's differ.
    private func mismatches(_ app: CommentApp, _ file: LiveThreadFile) throws -> Int {
        let shown = app.allComments.map(\.id), written = try file.fileCommentIDs()
        XCTAssertEqual(shown.count, written.count, "the client shows every comment once")
        return zip(shown, written).filter { $0 != $1 }.count
    }

    func testOurCommentTakesItsPlaceAfterOneThatLandedFirst() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        // Another writer's post lands; the client has not looked yet when Enter is pressed.
        try ThreadFileWriter(path: file.path).append(.comment(LiveThreadFile.comment("theirs")))
        LiveThreadFile.type("mine\r", into: app)
        XCTAssertTrue(LiveThreadFile.pump(app) { app.unconfirmedComments.isEmpty && app.allComments.count == 5 })
        XCTAssertEqual(try file.fileBodies().suffix(2), ["body of theirs", "mine"])
        XCTAssertEqual(app.allComments.map(\.body).suffix(2), ["body of theirs", "mine"])
        XCTAssertEqual(try mismatches(app, file), 0)
    }

    func testOthersArrivingWhileOursWaitsForTheLockGoAboveIt() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        let lock = try AppendLock(path: file.path)
        lock.release(after: 3)
        LiveThreadFile.type("mine\r", into: app)
        // The lock's holder appends (as `post` does while holding it), then lets go.
        let appended = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
        try appended.seekToEnd()
        var line: [UInt8] = []
        ThreadRecordEncoder().append(.comment(LiveThreadFile.comment("holder")), to: &line)
        try appended.write(contentsOf: line)
        try appended.close()
        XCTAssertTrue(LiveThreadFile.pump(app) { app.allComments.contains { $0.id == "holder" } })
        XCTAssertEqual(app.allComments.map(\.body).suffix(2), ["body of holder", "mine"], "ours, still on its way, stays last")
        lock.release()
        XCTAssertTrue(LiveThreadFile.pump(app) { app.unconfirmedComments.isEmpty })
        XCTAssertEqual(try mismatches(app, file), 0)
    }

    func testUnderEightConcurrentWritersTheClientShowsTheFileOrder() throws {
        let file = try LiveThreadFile(self, comments: 0)
        let app = try file.openApp()
        let writers = 8, each = 40, ours = 24
        let group = DispatchGroup()
        for writer in 0..<writers {
            DispatchQueue.global().async(group: group) {
                for n in 0..<each {
                    try? ThreadFileWriter(path: file.path).append(.comment(LiveThreadFile.comment("w\(writer)-\(n)")))
                }
            }
        }
        for n in 0..<ours {
            LiveThreadFile.type("mine \(n)\r", into: app)
            LiveThreadFile.pump(app, timeout: 0.02) { false }
        }
        group.wait()
        let total = writers * each + ours
        XCTAssertTrue(LiveThreadFile.pump(app, timeout: 10) { app.unconfirmedComments.isEmpty && app.allComments.count >= total })
        let differing = try mismatches(app, file)
        print("own comment order: \(differing) of \(total) positions differ from the file's under \(writers) writers")
        XCTAssertEqual(differing, 0)
        XCTAssertEqual(app.commentCount, total)
        app.feed.scroll._checkInvariants()
    }
}
