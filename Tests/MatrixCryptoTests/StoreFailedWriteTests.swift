import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// A write that fails leaves nothing of itself for the next open to find, and a record that no
/// longer reads is named (collection and id), not just a failure.
final class StoreFailedWriteTests: XCTestCase {
    var folder: StoreTestFolder!

    override func setUpWithError() throws { folder = try StoreTestFolder() }
    override func tearDown() { folder.remove() }

    /// The append fails (the journal's name is a link, refused); the store is rewritten at once,
    /// so a process that ends right after the failed write reopens cleanly without the change.
    func testAFailedAppendIsTakenBackAtOnceNotOnlyByTheNextWrite() throws {
        let store = try CryptoStore.open(at: folder.location)
        try store.put(.numbered(1), id: "s1", in: sessions)
        let journal = folder.location.path + "/journal"
        try FileManager.default.removeItem(atPath: journal)
        try FileManager.default.createSymbolicLink(atPath: journal, withDestinationPath: folder.root + "/elsewhere")
        XCTAssertThrowsError(try store.put(.numbered(2), id: "s2", in: sessions))
        XCTAssertNil(try store.value("s2", in: sessions), "nothing changed in memory")
        let attributes = try FileManager.default.attributesOfItem(atPath: journal)
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular, "the journal was rewritten right away")
        let reopened = try CryptoStore.open(at: folder.location)
        XCTAssertNil(reopened.loss)
        XCTAssertEqual(try reopened.values(in: sessions), ["s1": .numbered(1)])
    }

    func testARecordThatDoesNotReadIsNamedByCollectionAndID() throws {
        let store = try CryptoStore.open(at: folder.location)
        try store.put("not a number", id: "sent", in: CryptoStoreCollection<String>(counters.name))
        try store.put(4, id: "kept", in: counters)
        let reopened = try CryptoStore.open(at: folder.location)
        let expected = CryptoStoreUnreadableRecord(collection: "test.counters", id: "sent", type: "Int")
        XCTAssertThrowsError(try reopened.value("sent", in: counters)) { XCTAssertEqual($0 as? CryptoStoreUnreadableRecord, expected) }
        XCTAssertThrowsError(try reopened.values(in: counters)) { XCTAssertEqual($0 as? CryptoStoreUnreadableRecord, expected) }
        XCTAssertEqual(try reopened.value("kept", in: counters), 4, "the others still read")
        XCTAssertEqual("\(expected)", "the stored record sent of test.counters does not read as Int")
        try reopened.remove(id: "sent", from: counters)
        XCTAssertEqual(try CryptoStore.open(at: folder.location).values(in: counters), ["kept": 4], "removed, the collection reads")
    }
}
