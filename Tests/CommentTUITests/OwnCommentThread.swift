import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

extension XCTestCase {
    /// A followed thread file with bo's c1, then the reader ann's c2 (`body`), open as ann with a
    /// draft in progress a second ago: where editing and deleting one's own comments is tried.
    func openOwnCommentThread(c2 body: String) throws -> (file: LiveThreadFile, pilot: Pilot) {
        let live = try LiveThreadFile(self, comments: 1)
        try ThreadFileWriter(path: live.path).append([.comment(Comment(id: "c2", author: "u1", created: LiveThreadFile.start,
                                                                        body: body))])
        let app = try live.openApp(columns: 60, rows: 20)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 60, rows: 20))
        pilot.type("half a thought")
        pilot.advance(by: 1)
        return (live, pilot)
    }
}
