import Foundation
import XCTest
@testable import ThreadModel

final class DraftFileTests: XCTestCase {
    func makeFile() throws -> DraftFile {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("drafts-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: data) }
        let files = try XCTUnwrap(ThreadStateFiles(threadPath: "/threads/t.jsonl", environment: ["XDG_DATA_HOME": data.path]))
        return DraftFile(files)
    }

    func testSaveLoadAndRemove() throws {
        let file = try makeFile()
        XCTAssertNil(try file.load(), "no draft yet")
        try file.save(Data("one".utf8))
        try file.save(Data("two".utf8))
        XCTAssertEqual(try file.load(), Data("two".utf8))
        XCTAssertTrue(file.path.hasSuffix(".draft.json"))
        try file.remove()
        XCTAssertNil(try file.load())
        XCTAssertNoThrow(try file.remove(), "removing no draft is fine")
    }

    func testAnUnreadableDraftIsMovedAsideNeverOverwritten() throws {
        let file = try makeFile()
        try file.save(Data("{broken".utf8))
        let aside = try file.setAside()
        XCTAssertEqual(aside, file.path + ".broken-1")
        XCTAssertEqual(FileManager.default.contents(atPath: aside), Data("{broken".utf8))
        try file.save(Data("{again".utf8))
        XCTAssertEqual(try file.setAside(), file.path + ".broken-2", "a second broken draft keeps the first")
        XCTAssertNil(try file.load())
    }
}
