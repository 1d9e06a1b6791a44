import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// A seeded fuzz of the store's decoders: damaged and hostile bytes end in an error (set aside
/// when opening), never a crash or a read past the end, and never more memory than the bytes.
final class StoreFuzzTests: XCTestCase {
    var folder: StoreTestFolder!

    override func setUpWithError() throws { folder = try StoreTestFolder() }
    override func tearDown() { folder.remove() }

    /// `bytes` changed a few ways at random: bytes flipped, cut, repeated, or random bytes spliced in.
    func mutated(_ bytes: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var out = bytes
        for _ in 0 ... random.below(4) {
            switch random.below(5) {
            case 0 where !out.isEmpty: out[random.below(out.count)] ^= UInt8(1 + random.below(255))
            case 1 where !out.isEmpty: out = Array(out.prefix(random.below(out.count)))
            case 2: out.insert(contentsOf: (0 ..< random.below(16)).map { _ in UInt8(random.below(256)) }, at: random.below(out.count + 1))
            case 3 where !out.isEmpty: out[random.below(out.count)] = [0x00, 0xFF, 0x7F, 0x80][random.below(4)]
            default: out += out.suffix(random.below(40))
            }
        }
        return out
    }

    func testTheChangeListDecoderTakesAnyBytesAndNeverClaimsMoreThanThere() throws {
        var random = SeededRandom(seed: 33)
        let valid = CryptoStoreChange.encode([
            .put(collection: "olm.sessions", id: "curve", value: Array(repeating: 7, count: 300)),
            .remove(collection: "megolm.inbound", id: CryptoStoreCollection<Int>.id("!room", "sender", "session")),
            .put(collection: "é", id: "", value: []),
        ])
        XCTAssertEqual(try CryptoStoreChange.decode(valid).count, 3)
        var decoded = 0
        for _ in 0 ..< 20_000 {
            let bytes = random.below(10) == 0 ? (0 ..< random.below(64)).map { _ in UInt8(random.below(256)) } : mutated(valid, &random)
            if let changes = try? CryptoStoreChange.decode(bytes) {
                decoded += 1
                XCTAssertEqual(CryptoStoreChange.encode(changes), bytes, "what decodes is exactly what was encoded")
            }
        }
        XCTAssertGreaterThan(decoded, 0)
        // A count of four billion changes in ten bytes is refused before anything is reserved.
        XCTAssertThrowsError(try CryptoStoreChange.decode([0xFF, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0, 0, 0]))
        XCTAssertThrowsError(try CryptoStoreChange.decode([0, 0, 0, 1, 1, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]))
    }

    func testHostileChangesUnderAValidMACAreDamageNotACrash() throws {
        let header = CryptoStoreHeader(salt: [UInt8](repeating: 3, count: 32), stretching: nil)
        let keys = try header.keys(storeKey: CryptoStoreKey(bytes: [UInt8](repeating: 4, count: 32)), passphrase: nil)
        var random = SeededRandom(seed: 34)
        var bytesSource: any RandomSource = SeededBytes(seed: 35)
        let valid = try CryptoStoreFormat.frame(generation: 1, sequence: 1, changes: [.put(collection: "c", id: "i", value: [1, 2, 3])],
                                                seal: keys.seal, random: &bytesSource)
        XCTAssertEqual(try CryptoStoreFormat.journal(valid, generation: 1, seal: keys.seal).changes.count, 1)
        for _ in 0 ..< 3000 {
            // Plaintexts that are not change lists, sealed properly: the MAC passes, the decoder refuses.
            let plain = mutated(CryptoStoreChange.encode([.put(collection: "c", id: "i", value: [1, 2, 3])]), &random)
            let sealed = try keys.seal.seal(plain, context: [], random: &bytesSource)
            let parts = CryptoStoreFormat.SnapshotParts(header: header, keyCheck: [], passphraseCheck: nil, generation: 1, context: [], sealed: sealed)
            do {
                _ = try CryptoStoreFormat.records(in: parts, seal: keys.seal)
            } catch {
                XCTAssertTrue(error is CryptoStoreFormat.Damage, "\(error)")
            }
            // Damaged journals: whatever is read is a prefix of the valid record, or damage.
            let journal = mutated(valid + valid, &random)
            do {
                let read = try CryptoStoreFormat.journal(journal, generation: 1, seal: keys.seal)
                XCTAssertLessThanOrEqual(read.changes.count, 1, "the second record repeats sequence 1")
            } catch {
                XCTAssertTrue(error is CryptoStoreFormat.Damage, "\(error)")
            }
        }
    }

    func testOpeningDamagedFilesAlwaysEndsInAWorkingStore() throws {
        let store = try CryptoStore.open(at: folder.location, random: SeededBytes(seed: 36))
        for index in 0 ..< 5 { try store.put(.numbered(index), id: "s\(index)", in: sessions) }
        try store.compact()
        for index in 5 ..< 8 { try store.put(.numbered(index), id: "s\(index)", in: sessions) }
        let snapshot = folder.storeFile("snapshot"), journal = folder.storeFile("journal")
        var random = SeededRandom(seed: 37)
        for round in 0 ..< 150 {
            let damageSnapshot = random.below(2) == 0
            try folder.overwrite("snapshot", with: damageSnapshot ? mutated(snapshot, &random) : snapshot)
            try folder.overwrite("journal", with: damageSnapshot ? journal : mutated(journal, &random))
            let opened = try CryptoStore.open(at: folder.location, random: SeededBytes(seed: UInt64(round)))
            let values = try opened.values(in: sessions)
            if opened.loss == nil {
                // What reads is the snapshot's five and a prefix of the journal's three, in order.
                XCTAssertEqual(values, Dictionary(uniqueKeysWithValues: (0 ..< values.count).map { ("s\($0)", .numbered($0)) }), "round \(round)")
                XCTAssertGreaterThanOrEqual(values.count, 5, "round \(round)")
            } else {
                XCTAssertEqual(values, [:])
            }
            try? FileManager.default.removeItem(atPath: folder.location.path)
            for name in folder.storeFolders() where name != folder.location.name {
                try FileManager.default.removeItem(atPath: folder.location.parent + "/" + name)
            }
            try FileManager.default.createDirectory(atPath: folder.location.path, withIntermediateDirectories: false)
        }
    }
}
