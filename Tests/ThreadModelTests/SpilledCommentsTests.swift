import Foundation
import XCTest
@testable import ThreadModel

final class SpilledCommentsTests: XCTestCase {
    /// Pages of `size` comments numbered so that position n holds comment "c<n>" once all are in.
    private func pages(_ count: Int, size: Int) -> [[Comment]] {
        let total = count * size
        return (0..<count).map { page in
            let first = total - (page + 1) * size
            return (first..<(first + size)).map { n in
                Comment(id: "c\(n)", author: "@u\(n % 7):example.org", created: Date(timeIntervalSince1970: Double(1_000_000 + n)),
                        body: "comment \(n) with \"quotes\", a newline\nand émoji 👍🏽", edited: n % 5 == 0 ? Date(timeIntervalSince1970: 2_000_000) : nil)
            }
        }
    }

    func testPagesPrependedOlderReadBackByPositionFromTheFile() {
        let store = SpilledComments()
        for page in pages(20, size: 50) { store.prepend(page) }
        store._checkInvariants()
        XCTAssertEqual(store.count, 1000)
        XCTAssertEqual(store.countInMemory, 0, "everything went to the file")
        // Read in an order that defeats the small cache: every comment comes back whole.
        for n in stride(from: 999, through: 0, by: -1) {
            guard case .success(let comment) = store.comment(at: n) else { return XCTFail("comment \(n) did not read") }
            XCTAssertEqual(comment.id, "c\(n)")
            XCTAssertEqual(comment.author, "@u\(n % 7):example.org")
            XCTAssertEqual(comment.body, "comment \(n) with \"quotes\", a newline\nand émoji 👍🏽")
            XCTAssertEqual(comment.created, Date(timeIntervalSince1970: Double(1_000_000 + n)))
            XCTAssertEqual(comment.edited, n % 5 == 0 ? Date(timeIntervalSince1970: 2_000_000) : nil)
        }
    }

    func testWithoutAFileCommentsStayInMemoryAndNothingIsLost() {
        let store = SpilledComments(directory: "/nonexistent-directory-for-spill-test")
        for page in pages(3, size: 10) { store.prepend(page) }
        store._checkInvariants()
        XCTAssertEqual(store.countInMemory, 30)
        XCTAssertEqual((0..<30).compactMap { try? store.comment(at: $0).get().id }, (0..<30).map { "c\($0)" })
    }

    func testTheFileHasNoNameLeftBehind() throws {
        let folder = NSTemporaryDirectory() + "spill-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SpilledComments(directory: folder)
        store.prepend(pages(1, size: 5)[0])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "unlinked at once: nothing to clean up after a crash")
        XCTAssertEqual(store.countInMemory, 0)
    }

    func testADeletedCommentReadsBackDeletedFromTheFile() {
        let store = SpilledComments()
        let comments: [Comment] = (0..<6).map { (n: Int) -> Comment in
            let deleted = n % 2 == 0
            let body = deleted ? Comment.deletedBody : "kept \(n)"
            return Comment(id: "c\(n)", author: "@u:example.org", created: Date(timeIntervalSince1970: Double(1_000_000 + n)),
                           body: body, isDeleted: deleted)
        }
        store.prepend(Array(comments[3...]))
        store.prepend(Array(comments[..<3]))
        XCTAssertEqual(store.countInMemory, 0, "everything went to the file")
        for n in 0..<6 {
            guard case .success(let comment) = store.comment(at: n) else { return XCTFail("comment \(n) did not read") }
            XCTAssertEqual(comment.id, "c\(n)")
            XCTAssertEqual(comment.isDeleted, n % 2 == 0, "comment \(n) keeps its flag through the file")
        }
    }
}
