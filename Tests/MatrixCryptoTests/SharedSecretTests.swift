import ThreadModel
import XCTest
@testable import MatrixCrypto

/// A secret one of our devices sends us is taken only when it is the key the server publishes:
/// each cross-signing seed against its usage's public key, the backup key against the backup
/// version's; never shown when printed.
final class SharedSecretTests: XCTestCase {
    let userID = "@alice:example.org"

    func keys(_ first: UInt8) throws -> CrossSigningKeys {
        try CrossSigningKeys(userID: userID, masterSeed: [UInt8](repeating: first, count: 32),
                             selfSigningSeed: [UInt8](repeating: first + 1, count: 32), userSigningSeed: [UInt8](repeating: first + 2, count: 32))
    }

    func testEachCrossSigningSeedIsTakenOnlyAsThePublishedKeyOfItsUsage() throws {
        let ours = try keys(1), identity = try ours.publicIdentity()
        let seeds: [SharedSecret.Name: Ed25519KeyPair] = [.master: ours.master, .selfSigning: ours.selfSigning, .userSigning: ours.userSigning]
        for (name, pair) in seeds {
            let taken = try SharedSecret(name: name, secret: UnpaddedBase64.encode(pair.seed), identity: identity, backupPublicKey: nil)
            XCTAssertEqual(taken.bytes, pair.seed)
            // Element sends padded base64: the same key.
            let padded = UnpaddedBase64.encode(pair.seed) + "="
            XCTAssertEqual(try SharedSecret(name: name, secret: padded, identity: identity, backupPublicKey: nil).bytes, pair.seed)
        }
        // A seed of another usage, or of another identity, is not the published key.
        XCTAssertThrowsError(try SharedSecret(name: .master, secret: UnpaddedBase64.encode(ours.selfSigning.seed), identity: identity,
                                              backupPublicKey: nil)) {
            XCTAssertTrue("\($0)".contains("not the key our account publishes"), "\($0)")
        }
        let other = try keys(7)
        for name in SharedSecret.Name.crossSigning {
            let seed = name == .master ? other.master.seed : name == .selfSigning ? other.selfSigning.seed : other.userSigning.seed
            XCTAssertThrowsError(try SharedSecret(name: name, secret: UnpaddedBase64.encode(seed), identity: identity, backupPublicKey: nil))
        }
        XCTAssertThrowsError(try SharedSecret(name: .master, secret: UnpaddedBase64.encode(ours.master.seed), identity: nil, backupPublicKey: nil),
                             "nothing published to check against")
        XCTAssertThrowsError(try SharedSecret(name: .master, secret: "c2hvcnQ", identity: identity, backupPublicKey: nil), "not 32 bytes")
        XCTAssertThrowsError(try SharedSecret(name: .master, secret: "not base64!", identity: identity, backupPublicKey: nil))
    }

    func testABackupKeyIsTakenOnlyAsTheBackupVersionsPublicKey() throws {
        var random = SeededBytes(seed: 34)
        let backup = try Curve25519KeyPair(random: &random), other = try Curve25519KeyPair(random: &random)
        let published = UnpaddedBase64.encode(backup.publicKey)
        let taken = try SharedSecret(name: .backup, secret: UnpaddedBase64.encode(backup.privateKey), identity: nil, backupPublicKey: published)
        XCTAssertEqual(taken.base64, UnpaddedBase64.encode(backup.privateKey))
        XCTAssertThrowsError(try SharedSecret(name: .backup, secret: UnpaddedBase64.encode(other.privateKey), identity: nil,
                                              backupPublicKey: published)) {
            XCTAssertTrue("\($0)".contains("not the key our account publishes"), "\($0)")
        }
        XCTAssertThrowsError(try SharedSecret(name: .backup, secret: UnpaddedBase64.encode(backup.privateKey), identity: nil,
                                              backupPublicKey: "c2hvcnQ"), "a malformed public key checks nothing")
        // No backup on the server: nothing to check against, the key is kept for when there is.
        XCTAssertNoThrow(try SharedSecret(name: .backup, secret: UnpaddedBase64.encode(other.privateKey), identity: nil, backupPublicKey: nil))
        // Never shown.
        for shown in ["\(taken)", String(reflecting: taken), "\(Mirror(reflecting: taken).children.map(\.value))"] {
            XCTAssertFalse(shown.contains(taken.base64), shown)
        }
    }
}
