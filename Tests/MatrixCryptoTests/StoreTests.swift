import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// The crypto store keeps what it is given across openings, in private files, under its key.
final class StoreTests: XCTestCase {
    var folder: StoreTestFolder!

    override func setUpWithError() throws { folder = try StoreTestFolder() }
    override func tearDown() { folder.remove() }

    func testRecordsWrittenReadBackAfterReopeningWithRemovalsAndBatches() throws {
        let store = try CryptoStore.open(at: folder.location)
        XCTAssertNil(store.loss)
        for index in 0 ..< 20 { try store.put(.numbered(index), id: "s\(index)", in: sessions) }
        try store.write { batch in
            try batch.put(.numbered(100), id: "s3", in: sessions)
            batch.remove(id: "s4", from: sessions)
            try batch.put(7, id: "sent", in: counters)
        }
        try store.remove(id: "s5", from: sessions)
        let reopened = try CryptoStore.open(at: folder.location)
        XCTAssertNil(reopened.loss)
        var expected = Dictionary(uniqueKeysWithValues: (0 ..< 20).map { ("s\($0)", StoredSession.numbered($0)) })
        expected["s3"] = .numbered(100)
        expected["s4"] = nil
        expected["s5"] = nil
        XCTAssertEqual(try reopened.values(in: sessions), expected)
        XCTAssertEqual(try reopened.value("sent", in: counters), 7)
        XCTAssertNil(try reopened.value("s4", in: sessions))
        XCTAssertEqual(reopened.ids(in: counters), ["sent"])
    }

    func testCompactionKeepsEverythingAndEmptiesTheJournal() throws {
        let store = try CryptoStore.open(at: folder.location)
        for index in 0 ..< 30 { try store.put(.numbered(index), id: "s\(index % 10)", in: sessions) }
        XCTAssertGreaterThan(folder.storeFile("journal").count, 30 * 300)
        try store.compact()
        XCTAssertEqual(folder.storeFile("journal"), [])
        try store.put(.numbered(99), id: "s0", in: sessions)
        let reopened = try CryptoStore.open(at: folder.location)
        XCTAssertNil(reopened.loss)
        XCTAssertEqual(try reopened.value("s0", in: sessions), .numbered(99))
        XCTAssertEqual(try reopened.value("s9", in: sessions), .numbered(29))
    }

    func testAWriteAppendsOnlyItsOwnChangeNotTheOtherSessions() throws {
        let store = try CryptoStore.open(at: folder.location)
        for index in 0 ..< 200 { try store.write { try $0.put(.numbered(index), id: "s\(index)", in: sessions) } }
        try store.compact()
        let snapshot = folder.storeFile("snapshot")
        try store.put(.numbered(5), id: "s5", in: sessions)
        XCTAssertEqual(folder.storeFile("snapshot"), snapshot, "the snapshot is not rewritten for one change")
        XCTAssertLessThan(folder.storeFile("journal").count, 500, "one session's change appends about its own size")
    }

    func testTheJournalIsCompactedOnceItOutgrowsTheSnapshot() throws {
        let store = try CryptoStore.open(at: folder.location)
        for index in 0 ..< 1200 { try store.put(.numbered(index), id: "s\(index % 4)", in: sessions) }
        XCTAssertLessThan(folder.storeFile("journal").count, CryptoStore.smallestCompaction + 1000)
        XCTAssertEqual(try CryptoStore.open(at: folder.location).value("s3", in: sessions), .numbered(1199))
    }

    func testFilesAre0600InA0700FolderAndTheKeyLivesBesideTheAccountsNotTheStore() throws {
        let store = try CryptoStore.open(at: folder.location)
        try store.put(.numbered(1), id: "s", in: sessions)
        let location = folder.location
        XCTAssertEqual(folder.mode(location.path), 0o700)
        XCTAssertEqual(folder.mode(location.parent), 0o700)
        XCTAssertEqual(folder.mode(location.keyFolder), 0o700)
        XCTAssertEqual(folder.mode(location.path + "/snapshot"), 0o600)
        XCTAssertEqual(folder.mode(location.path + "/journal"), 0o600)
        XCTAssertEqual(folder.mode(location.keyFolder + "/" + location.keyFile), 0o600)
        XCTAssertEqual(FileManager.default.contents(atPath: location.keyFolder + "/" + location.keyFile)?.count, 32)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: location.path).sorted(), ["journal", "snapshot"])
    }

    func testAStoreFolderOthersCanWriteIsRefusedNotUsed() throws {
        let store = try CryptoStore.open(at: folder.location)
        try store.put(.numbered(1), id: "s", in: sessions)
        chmod(folder.location.path, 0o777)
        XCTAssertThrowsError(try CryptoStore.open(at: folder.location)) { error in
            XCTAssertTrue("\(error)".contains("can be written by others"), "\(error)")
        }
        XCTAssertEqual(folder.storeFolders(), [folder.location.name], "nothing was set aside")
        chmod(folder.location.path, 0o700)
        XCTAssertEqual(try CryptoStore.open(at: folder.location).value("s", in: sessions), .numbered(1))
    }

    func testNothingOfARecordIsReadableInTheFiles() throws {
        let store = try CryptoStore.open(at: folder.location)
        try store.put(StoredSession(pickle: "SECRETPICKLE", index: 1), id: "@bob:example.org", in: sessions)
        try store.compact()
        try store.put(StoredSession(pickle: "OTHERSECRET", index: 2), id: "@bob:example.org", in: sessions)
        let files = String(decoding: folder.storeFile("snapshot") + folder.storeFile("journal"), as: UTF8.self)
        for clear in ["SECRETPICKLE", "OTHERSECRET", "@bob", "test.sessions"] { XCTAssertFalse(files.contains(clear), clear) }
    }

    func testAPassphraseIsNeededToOpenAndAWrongOneLeavesTheStoreAlone() throws {
        let store = try CryptoStore.open(at: folder.location, passphrase: "correct horse", passphraseIterations: 1000)
        try store.put(.numbered(8), id: "s", in: sessions)
        XCTAssertThrowsError(try CryptoStore.open(at: folder.location)) { XCTAssertEqual($0 as? CryptoStoreRefusal, .passphraseNeeded) }
        XCTAssertThrowsError(try CryptoStore.open(at: folder.location, passphrase: "wrong horse")) {
            XCTAssertEqual($0 as? CryptoStoreRefusal, .wrongPassphrase)
        }
        XCTAssertEqual(folder.storeFolders(), [folder.location.name], "nothing was set aside")
        let reopened = try CryptoStore.open(at: folder.location, passphrase: "correct horse")
        XCTAssertNil(reopened.loss)
        XCTAssertEqual(try reopened.value("s", in: sessions), .numbered(8))
    }

    func testAPassphraseGivenToAStoreWithoutOneIsRefused() throws {
        try CryptoStore.open(at: folder.location).put(.numbered(1), id: "s", in: sessions)
        XCTAssertThrowsError(try CryptoStore.open(at: folder.location, passphrase: "x")) { XCTAssertEqual($0 as? CryptoStoreRefusal, .noPassphrase) }
    }

    func testThePassphraseGoesIntoTheKeysNotJustACheck() throws {
        // The same store key and salts with two passphrases seal differently: a wrong passphrase
        // with the check cut out would still not decrypt.
        let key = CryptoStoreKey(bytes: [UInt8](repeating: 9, count: 32))
        var header = CryptoStoreHeader(salt: [UInt8](repeating: 1, count: 32), stretching: .init(iterations: 10, salt: [UInt8](repeating: 2, count: 16)))
        let one = try header.keys(storeKey: key, passphrase: "one")
        let two = try header.keys(storeKey: key, passphrase: "two")
        var random: any RandomSource = SeededBytes(seed: 1)
        let sealed = try one.seal.seal(utf8("record"), context: [], random: &random)
        XCTAssertNil(try two.seal.open(sealed, context: []))
        XCTAssertEqual(try one.seal.open(sealed, context: []), utf8("record"))
        XCTAssertEqual(one.keyCheck, two.keyCheck, "the key check depends on the store key only")
        header.stretching = nil
        XCTAssertNotEqual(try header.keyCheck(storeKey: key), one.keyCheck, "a changed parameter changes the key check")
    }

    func testTheKeyAndErrorsNeverShowKeyBytes() throws {
        let key = CryptoStoreKey(bytes: [UInt8](repeating: 0xAB, count: 32))
        XCTAssertEqual("\(key)", "crypto store key (not shown)")
        XCTAssertFalse(String(reflecting: key).lowercased().contains("ab, "), String(reflecting: key))
    }

    func testRecordIDsFromPartsDoNotCollide() {
        XCTAssertNotEqual(CryptoStoreCollection<Int>.id("a:b", "c"), CryptoStoreCollection<Int>.id("a", "b:c"))
        XCTAssertEqual(CryptoStoreCollection<Int>.id("!room", "key", "id"), "5:!room3:key2:id")
    }
}
