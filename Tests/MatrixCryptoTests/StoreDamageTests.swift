import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// A store that does not read is set aside whole (never overwritten or deleted), a fresh one
/// starts, and the account of the loss says why and where the old one is.
final class StoreDamageTests: XCTestCase {
    var folder: StoreTestFolder!

    override func setUpWithError() throws { folder = try StoreTestFolder() }
    override func tearDown() { folder.remove() }

    /// A store holding three sessions, written as a snapshot and a journal.
    func filledStore() throws {
        let store = try CryptoStore.open(at: folder.location)
        try store.put(.numbered(1), id: "s1", in: sessions)
        try store.compact()
        try store.put(.numbered(2), id: "s2", in: sessions)
        try store.put(.numbered(3), id: "s3", in: sessions)
    }

    /// Opens the store after damage, checks it was set aside with its files as they were and a
    /// fresh, empty, working store started; returns the account of the loss.
    func openSetAside(file: String? = nil, line: UInt = #line) throws -> CryptoStoreLoss? {
        let before = (snapshot: folder.storeFile("snapshot"), journal: folder.storeFile("journal"))
        let store = try CryptoStore.open(at: folder.location)
        let kept = folder.location.path + ".broken-1"
        XCTAssertEqual(store.loss?.keptAt, kept, line: line)
        XCTAssertEqual(folder.storeFolders(), [folder.location.name, folder.location.name + ".broken-1"], line: line)
        XCTAssertEqual(Array(FileManager.default.contents(atPath: kept + "/snapshot") ?? Data()), before.snapshot, "kept as it was", line: line)
        XCTAssertEqual(Array(FileManager.default.contents(atPath: kept + "/journal") ?? Data()), before.journal, "kept as it was", line: line)
        XCTAssertEqual(try store.values(in: sessions), [:], line: line)
        try store.put(.numbered(4), id: "s4", in: sessions)
        let reopened = try CryptoStore.open(at: folder.location)
        XCTAssertNil(reopened.loss, "the fresh store reads", line: line)
        XCTAssertEqual(try reopened.values(in: sessions), ["s4": .numbered(4)], line: line)
        return store.loss
    }

    func testAnotherKeySetsTheStoreAsideAndSaysSo() throws {
        try filledStore()
        let keyPath = folder.location.keyFolder + "/" + folder.location.keyFile
        try Data([UInt8](repeating: 7, count: 32)).write(to: URL(fileURLWithPath: keyPath))
        let loss = try XCTUnwrap(try openSetAside())
        XCTAssertEqual(loss.reason, "the store key beside the access token does not match it")
        XCTAssertEqual(loss.description, "the encryption store could not be read (the store key beside the access token does not match it); "
            + "it was kept as \(folder.location.path).broken-1; sessions before now will need their keys again")
    }

    func testALostKeyFileSetsTheStoreAsideAndSaysTheKeyWasMissing() throws {
        try filledStore()
        try FileManager.default.removeItem(atPath: folder.location.keyFolder + "/" + folder.location.keyFile)
        let loss = try XCTUnwrap(try openSetAside())
        XCTAssertTrue(loss.reason.hasPrefix("there was no store key beside the access token"), loss.reason)
    }

    func testAKeyFileThatIsNotAKeyIsItselfKeptAside() throws {
        try filledStore()
        let keyPath = folder.location.keyFolder + "/" + folder.location.keyFile
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: keyPath))
        let loss = try XCTUnwrap(try openSetAside())
        XCTAssertTrue(loss.reason.contains("kept as \(keyPath).broken-1"), loss.reason)
        XCTAssertEqual(FileManager.default.contents(atPath: keyPath + ".broken-1"), Data("not a key".utf8))
    }

    func testEveryChangedByteOfTheSnapshotSetsTheStoreAside() throws {
        try filledStore()
        let snapshot = folder.storeFile("snapshot")
        var random = SeededRandom(seed: 5)
        // A byte in the magic, the salt, the checks, the generation, the IV, the ciphertext, the MAC.
        for offset in [0, 30, 60, 70, 100, 130, 150, snapshot.count / 2, snapshot.count - 1] {
            var changed = snapshot
            changed[offset] ^= UInt8(1 + random.below(255))
            try folder.overwrite("snapshot", with: changed)
            XCTAssertNotNil(try openSetAside()?.reason, "byte \(offset)")
            try FileManager.default.removeItem(atPath: folder.location.path)
            try FileManager.default.moveItem(atPath: folder.location.path + ".broken-1", toPath: folder.location.path)
            try folder.overwrite("snapshot", with: snapshot)
        }
        XCTAssertEqual(try CryptoStore.open(at: folder.location).value("s3", in: sessions), .numbered(3), "the unchanged store still reads")
    }

    func testAChangedByteInAJournalRecordSetsTheStoreAside() throws {
        try filledStore()
        var journal = folder.storeFile("journal")
        journal[journal.count / 4] ^= 0x20  // inside the first record, whose length still stands
        try folder.overwrite("journal", with: journal)
        let loss = try XCTUnwrap(try openSetAside())
        XCTAssertEqual(loss.reason, "its journal's record 1 does not check: a byte was changed")
    }

    /// The last record, ending the file, that does not check is an append that never finished
    /// (power lost before its fsync returned, so never acknowledged): dropped, not damage.
    func testAChangedByteInTheLastRecordEndingTheFileIsAWriteCutShort() throws {
        try filledStore()
        var journal = folder.storeFile("journal")
        journal[journal.count - 3] ^= 0x01  // the last record's MAC
        try folder.overwrite("journal", with: journal)
        let store = try CryptoStore.open(at: folder.location)
        XCTAssertNil(store.loss)
        XCTAssertEqual(try store.values(in: sessions), ["s1": .numbered(1), "s2": .numbered(2)])
        XCTAssertEqual(folder.storeFile("journal"), [], "compacted, so nothing follows the dropped record")
        XCTAssertEqual(folder.storeFolders(), [folder.location.name])
    }

    func testAChangedByteInTheLastRecordBeforeZerosIsStillDamage() throws {
        try filledStore()
        var journal = folder.storeFile("journal")
        journal[journal.count - 3] ^= 0x01  // complete, and more follows: not the end of an append
        try folder.overwrite("journal", with: journal + [UInt8](repeating: 0, count: 40))
        XCTAssertEqual(try openSetAside()?.reason, "its journal's record 2 does not check: a byte was changed")
    }

    func testAChangedRecordLengthIsDamageNotACutShortWrite() throws {
        try filledStore()
        var journal = folder.storeFile("journal")
        journal[1] ^= 0x40  // the first record's length now reaches past the end
        try folder.overwrite("journal", with: journal)
        XCTAssertEqual(try openSetAside()?.reason, "its journal's record 1 does not check")
    }

    func testARecordRemovedFromTheMiddleSetsTheStoreAside() throws {
        try filledStore()
        let store = try CryptoStore.open(at: folder.location)
        let journal = folder.storeFile("journal")
        let first = journal.count / 2
        try store.put(.numbered(5), id: "s5", in: sessions)
        let third = folder.storeFile("journal")[journal.count...]
        try folder.overwrite("journal", with: Array(journal[..<first]) + third)  // record 2 gone
        XCTAssertEqual(try openSetAside()?.reason, "its journal's records are out of order (one is missing or repeated, or the snapshot is older)")
    }

    func testATruncatedSnapshotSetsTheStoreAside() throws {
        try filledStore()
        let snapshot = folder.storeFile("snapshot")
        for length in [0, 10, 60, snapshot.count - 1] {
            try folder.overwrite("snapshot", with: Array(snapshot.prefix(length)))
            XCTAssertNotNil(try openSetAside()?.reason, "cut to \(length)")
            try FileManager.default.removeItem(atPath: folder.location.path)
            try FileManager.default.moveItem(atPath: folder.location.path + ".broken-1", toPath: folder.location.path)
        }
    }

    func testAMissingSnapshotWithAJournalSetsTheStoreAside() throws {
        try filledStore()
        try FileManager.default.removeItem(atPath: folder.location.path + "/snapshot")
        XCTAssertEqual(try openSetAside()?.reason, "its snapshot file is missing")
    }

    func testAJournalCutShortInItsLastRecordLosesOnlyThatRecord() throws {
        for cut in [1, 7, 8, 30, 200] {
            try? FileManager.default.removeItem(atPath: folder.location.path)
            try filledStore()
            let journal = folder.storeFile("journal")
            XCTAssertLessThan(cut, journal.count / 2, "the cut is inside the last of two records")
            try folder.overwrite("journal", with: Array(journal.dropLast(cut)))
            let store = try CryptoStore.open(at: folder.location)
            XCTAssertNil(store.loss, "cut by \(cut)")
            XCTAssertEqual(try store.values(in: sessions), ["s1": .numbered(1), "s2": .numbered(2)], "cut by \(cut)")
            XCTAssertEqual(folder.storeFile("journal"), [], "compacted, so no record follows the cut one")
            try store.put(.numbered(3), id: "s3", in: sessions)
            XCTAssertEqual(try CryptoStore.open(at: folder.location).value("s3", in: sessions), .numbered(3))
            XCTAssertEqual(folder.storeFolders(), [folder.location.name])
        }
    }

    func testAJournalEndingInZerosLosesOnlyTheZeros() throws {
        try filledStore()
        try folder.overwrite("journal", with: folder.storeFile("journal") + [UInt8](repeating: 0, count: 300))
        let store = try CryptoStore.open(at: folder.location)
        XCTAssertNil(store.loss)
        XCTAssertEqual(try store.value("s3", in: sessions), .numbered(3))
    }

    func testStaleRecordsAfterACompactionCutShortAreSkipped() throws {
        try filledStore()
        let journal = folder.storeFile("journal")
        let store = try CryptoStore.open(at: folder.location)
        try store.compact()
        try folder.overwrite("journal", with: journal)  // as if killed before the journal was emptied
        let reopened = try CryptoStore.open(at: folder.location)
        XCTAssertNil(reopened.loss)
        XCTAssertEqual(try reopened.values(in: sessions).count, 3)
        XCTAssertEqual(folder.storeFile("journal"), [])
    }
}
