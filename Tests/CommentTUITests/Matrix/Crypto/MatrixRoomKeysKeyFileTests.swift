import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// Room keys in and out of key files without a server (`MatrixRoomKeys+KeyFile`, `KeysCommand`):
/// an import keeps the copy of a session from the earliest index, refuses a key that claims a
/// session we hold but is not it, and marks what it adds as imported; `keys export` asks for the
/// passphrase twice on a terminal and never shows it.
final class MatrixRoomKeysKeyFileTests: XCTestCase {
    private let room = "!files:test.local"
    private let sender = UnpaddedBase64.encode([UInt8](repeating: 7, count: 32))

    private func folder() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("key-file-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// Ann's keys in a fresh store; no server (a closed port answers nothing).
    private func keys(in folder: URL) throws -> MatrixRoomKeys {
        let location = CryptoStoreLocation(parent: folder.appendingPathComponent("data").path, keyFolder: folder.appendingPathComponent("config").path,
                                           userID: "@ann:test.local", deviceID: "ANN")
        return try MatrixRoomKeys(client: MatrixClient(homeserver: URL(string: "http://127.0.0.1:9")!, accessToken: "t"),
                                  userID: "@ann:test.local", deviceID: "ANN", location: location)
    }

    private func stored(_ keys: MatrixRoomKeys, _ sessionID: String) throws -> MatrixRoomKeys.StoredRoomKey? {
        try keys.device.store.value(CryptoStoreCollection<MatrixRoomKeys.StoredRoomKey>.id(room, sessionID), in: MatrixRoomKeys.megolmSessions)
    }

    private func put(_ session: MegolmInboundSession, in keys: MatrixRoomKeys) throws {
        try keys.device.store.put(MatrixRoomKeys.StoredRoomKey(session: session, senderKey: sender, claimedSigningKey: "claimed"),
                                  id: CryptoStoreCollection<MatrixRoomKeys.StoredRoomKey>.id(room, session.sessionID), in: MatrixRoomKeys.megolmSessions)
    }

    private func exported(_ session: MegolmInboundSession, at index: UInt32, senderKey: String? = nil) throws -> ExportedRoomKey {
        ExportedRoomKey(roomID: room, senderKey: senderKey ?? sender, sessionKey: try session.export(at: index), claimedSigningKey: "from-file")
    }

    func testImportKeepsTheEarliestCopyRefusesImpostorsAndMarksWhatItAdds() throws {
        let keys = try keys(in: folder())
        var random = SystemRandom()
        // Held from index 0: a file's copy from index 3 changes nothing.
        var early = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        let earlyInbound = MegolmInboundSession(sessionKey: try early.sessionKey())
        try put(earlyInbound, in: keys)
        for _ in 0 ..< 3 { _ = try early.encrypt([1]) }
        // Held from index 2: a file's copy from index 0 makes messages 0 and 1 readable.
        var late = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        let lateFromZero = MegolmInboundSession(sessionKey: try late.sessionKey())
        let firstMessage = try late.encrypt(Array("zero".utf8))
        _ = try late.encrypt([1])
        try put(MegolmInboundSession(sessionKey: try late.sessionKey()), in: keys)
        // New to us.
        let fresh = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        let freshInbound = MegolmInboundSession(sessionKey: try fresh.sessionKey())
        // The early session's id with a ratchet that is not its own.
        var forgedBytes = try earlyInbound.export(at: 0).bytes
        forgedBytes[20] ^= 0xFF

        let outcome = try keys.importRoomKeys([
            try exported(MegolmInboundSession(sessionKey: try early.sessionKey()), at: 3),
            try exported(lateFromZero, at: 0),
            try exported(freshInbound, at: 0),
            ExportedRoomKey(roomID: room, senderKey: sender, sessionKey: try MegolmExportedSessionKey(bytes: forgedBytes), claimedSigningKey: nil),
            try exported(earlyInbound, at: 0, senderKey: UnpaddedBase64.encode([UInt8](repeating: 9, count: 32))),
        ])
        XCTAssertEqual(outcome, MatrixRoomKeys.KeyImport(added: 1, improved: 1, alreadyKept: 1, refused: 2))

        let keptEarly = try XCTUnwrap(stored(keys, earlyInbound.sessionID))
        XCTAssertEqual(keptEarly.session, earlyInbound, "the copy from index 0, signed, stays")
        XCTAssertNil(keptEarly.origin)
        var keptLate = try XCTUnwrap(stored(keys, lateFromZero.sessionID))
        XCTAssertEqual(keptLate.session.firstKnownIndex, 0)
        XCTAssertTrue(keptLate.session.isSigned, "its ratchet leads to the copy its sender signed")
        XCTAssertEqual(try keptLate.session.decrypt(firstMessage).plaintext, Array("zero".utf8))
        let added = try XCTUnwrap(stored(keys, freshInbound.sessionID))
        XCTAssertEqual(added.origin, .imported)
        XCTAssertFalse(added.session.isSigned)
        XCTAssertEqual(added.claimedSigningKey, "from-file")
        XCTAssertEqual(keys.keyArrivals, 2, "rooms re-decrypt what waited")

        let listed = try keys.exportedRoomKeys()
        XCTAssertEqual(Set(listed.map(\.sessionID)), [earlyInbound.sessionID, lateFromZero.sessionID, freshInbound.sessionID])
        XCTAssertEqual(listed.map(\.sessionKey.ratchet.index), [0, 0, 0])
        XCTAssertTrue(listed.allSatisfy { $0.roomID == room && $0.senderKey == sender })
        XCTAssertEqual(Set(listed.compactMap(\.claimedSigningKey)), ["claimed", "from-file"])
    }

    func testIdPartsReadWhatCollectionIdsJoin() {
        let id = CryptoStoreCollection<Int>.id("!a:b:c", "", "12:3")
        XCTAssertEqual(MatrixRoomKeys.idParts(id), ["!a:b:c", "", "12:3"])
        XCTAssertNil(MatrixRoomKeys.idParts("5:abc"))
        XCTAssertNil(MatrixRoomKeys.idParts("x:abc"))
    }

    func testExportAsksThePassphraseTwiceOnATerminalNeverShowsItAndNeverReplacesAFile() throws {
        let folder = folder()
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                           "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: environment)))
        accounts.add(.init(userID: "@ann:test.local", homeserver: "http://127.0.0.1:9", accessToken: "t", deviceID: "ANN"))
        try accounts.save()
        let file = folder.appendingPathComponent("keys.txt").path
        func export(typing: [String], _ arguments: [String] = []) -> (status: Int32, shown: String) {
            nonisolated(unsafe) var typed = typing[...]
            nonisolated(unsafe) var shown = ""
            var context = CommandContext(environment: environment, now: Date.init, writeOutput: { shown += String(decoding: $0, as: UTF8.self) },
                                         writeError: { shown += $0 }, readInput: { _ in XCTFail("stdin read on a terminal"); return [] },
                                         inputIsTerminal: true)
            context.readSecret = { typed.popFirst() }
            return (Verb.keys.run(["export", file] + arguments, context: context), shown)
        }
        let differing = export(typing: ["first secret", "second secret"])
        XCTAssertEqual(differing.status, 1)
        XCTAssertEqual(differing.shown, """
            Passphrase for the key file: The same passphrase again: comment-tui keys: the two passphrases differ; no keys were exported

            """)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))

        let written = export(typing: ["same secret", "same secret"])
        XCTAssertEqual(written.status, 0, written.shown)
        XCTAssertTrue(written.shown.hasSuffix("wrote 0 room keys of @ann:test.local to \(file); anyone with this file and its passphrase can read those messages\n"),
                      written.shown)
        XCTAssertFalse(written.shown.contains("secret"), written.shown)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertEqual(try MegolmKeyExport.openKeys(text, passphrase: "same secret").keys, [])

        let refused = export(typing: [])
        XCTAssertEqual(refused.shown, "comment-tui keys: \(file) exists already; no keys were exported (give --force to replace it)\n",
                       "refused before any passphrase is asked")
        XCTAssertEqual(export(typing: ["new secret", "new secret"], ["--force"]).status, 0)
        XCTAssertNotNil(try MegolmKeyExport.openKeys(String(contentsOfFile: file, encoding: .utf8), passphrase: "new secret"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["config", "data", "keys.txt"],
                       "no temporary file left")
    }
}
