import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// The ratchet on its own: jumping ahead equals stepping, libolm's export agrees at indices
/// that cross every part's boundary, and it never goes back.
final class MegolmRatchetTests: XCTestCase {
    private func ratchet(seed: UInt64, index: UInt32) throws -> MegolmRatchet {
        var seeded = SeededRandom(seed: seed)
        return try MegolmRatchet(bytes: (0 ..< 128).map { _ in UInt8.random(in: 0 ... 255, using: &seeded) }, index: index)
    }

    func testAdvancingToAnIndexEqualsAdvancingOneStepAtATime() throws {
        var seeded = SeededRandom(seed: 40)
        // Starts just before the parts' boundaries, so the jumps cross R(·,3), R(·,2) and R(·,1) rollovers.
        for start in [0, 250, 65_530, 16_777_200] as [UInt32] {
            let original = try ratchet(seed: UInt64(start), index: start)
            var stepped = original
            for _ in 0 ..< 40 {
                let target = stepped.index + UInt32(seeded.below(20))
                var jumped = original
                try jumped.advance(to: target)
                while stepped.index < target { try stepped.advance() }
                XCTAssertEqual(jumped, stepped, "from \(start) to \(target)")
            }
        }
    }

    func testTheRatchetAtAnIndexMatchesLibolmsAcrossEveryPartsBoundary() throws {
        let start = try ratchet(seed: 41, index: 0)
        // libolm's inbound session exports its ratchet advanced to any index; the export's
        // version byte, index, ratchet and key are compared whole.
        let signing = try Ed25519KeyPair(seed: [UInt8](repeating: 9, count: 32))
        let exported = MegolmExportedSessionKey(ratchet: start, signingKey: signing.publicKey)
        let libolm = try LibolmInboundGroupSession(key: exported.base64, imported: true)
        for target in [1, 255, 256, 257, 65_535, 65_536, 65_537, 16_777_215, 16_777_216, 16_777_217, 2_147_483_647] as [UInt32] {
            var ours = start
            try ours.advance(to: target)
            XCTAssertEqual(MegolmExportedSessionKey(ratchet: ours, signingKey: signing.publicKey).base64,
                           try libolm.export(at: target), "ratchet at \(target)")
        }
    }

    func testTheRatchetNeverGoesBackNorPastItsLastIndex() throws {
        var ratchet = try ratchet(seed: 42, index: 500)
        let before = ratchet
        XCTAssertEqual((Result { try ratchet.advance(to: 499) }.megolmTestError as? MegolmFailure)?.reason, .unknownMessageIndex)
        XCTAssertEqual(ratchet, before)
        try ratchet.advance(to: 500)
        XCTAssertEqual(ratchet, before, "advancing to its own index changes nothing")
        try ratchet.advance(to: .max)
        XCTAssertThrowsError(try ratchet.advance())
        XCTAssertEqual(ratchet.index, .max)
    }

    func testTheRatchetRefusesTheWrongLengthAndRoundTripsThroughCodable() throws {
        XCTAssertThrowsError(try MegolmRatchet(bytes: [UInt8](repeating: 1, count: 127), index: 0))
        let original = try ratchet(seed: 43, index: 70_000)
        let data = try JSONEncoder().encode(original)
        XCTAssertEqual(try JSONDecoder().decode(MegolmRatchet.self, from: data), original)
        let short = #"{"index":1,"ratchet":"AAAA"}"#
        XCTAssertThrowsError(try JSONDecoder().decode(MegolmRatchet.self, from: Data(short.utf8)))
    }
}
