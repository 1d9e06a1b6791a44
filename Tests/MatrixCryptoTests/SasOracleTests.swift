import COlm
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// libolm's `OlmSAS` (sas.h) as the oracle of the SAS primitives: from the same private key
/// bytes and the same info strings, the same public key, SAS bytes and `hkdf-hmac-sha256.v2` MACs.
final class SasOracleTests: XCTestCase {
    func testKeysSasBytesAndMacsFromTheSameBytesMatchLibolm() throws {
        var seeded = SeededBytes(seed: 34)
        for round in 0 ..< 25 {
            let theirPrivate = try seeded.bytes(32), ourPrivate = try seeded.bytes(32)
            let ours = try Curve25519KeyPair(privateKey: ourPrivate)
            let olm = try LibolmSas(random: theirPrivate)
            XCTAssertEqual(olm.publicKey, UnpaddedBase64.encode(try Curve25519KeyPair(privateKey: theirPrivate).publicKey))
            try olm.setTheirKey(UnpaddedBase64.encode(ours.publicKey))
            let established = try EstablishedSas(ours: ours, theirPublicKey: XCTUnwrap(UnpaddedBase64.decode(olm.publicKey)))

            let side = { (user: String, key: String) in SasInfo.Side(userID: "@\(user):x", deviceID: "DEV\(round)", publicKey: key) }
            let sasInfo = SasInfo.sas(starter: side("alice", olm.publicKey), accepter: side("bob", UnpaddedBase64.encode(ours.publicKey)),
                                      transactionID: "txn\(round)")
            XCTAssertEqual(try olm.bytes(info: sasInfo, count: 6), try established.bytes(info: sasInfo, count: 6))
            let macInfo = SasInfo.mac(senderUser: "@alice:x", senderDevice: "A", receiverUser: "@bob:x", receiverDevice: "B",
                                      transactionID: "txn\(round)", keyID: "ed25519:A")
            let input = UnpaddedBase64.encode(try seeded.bytes(32))
            let theirMac = try olm.mac(of: input, info: macInfo)
            XCTAssertEqual(theirMac, try established.mac(of: input, info: macInfo))
            XCTAssertTrue(established.macMatches(theirMac, of: input, info: macInfo))
            // A MAC under another info (another key id) must not check, or the check proves nothing.
            XCTAssertFalse(established.macMatches(theirMac, of: input, info: macInfo + "x"))
        }
    }

    func testShortAuthenticationStringFollowsTheSpecBitByBit() throws {
        var seeded = SeededBytes(seed: 7)
        for _ in 0 ..< 200 {
            let bytes = try seeded.bytes(6)
            let bits = bytes.flatMap { byte in (0 ..< 8).map { (byte >> (7 - $0)) & 1 } }
            func number(_ range: Range<Int>) -> Int { bits[range].reduce(0) { $0 << 1 | Int($1) } }
            let sas = try ShortAuthenticationString(bytes: bytes)
            XCTAssertEqual(sas.decimals, [number(0 ..< 13) + 1000, number(13 ..< 26) + 1000, number(26 ..< 39) + 1000])
            XCTAssertEqual(sas.emoji.map(\.index), (0 ..< 7).map { number($0 * 6 ..< $0 * 6 + 6) })
        }
        XCTAssertEqual(try ShortAuthenticationString(bytes: [0, 0, 0, 0, 0, 0]).emoji.map(\.name), Array(repeating: "Dog", count: 7))
        XCTAssertEqual(try ShortAuthenticationString(bytes: [255, 255, 255, 255, 255, 255]).decimals, [9191, 9191, 9191])
        XCTAssertEqual(SasEmoji.table.count, 64)
        XCTAssertEqual(SasEmoji.table.map(\.index), Array(0 ..< 64))
        XCTAssertEqual(SasEmoji.table[34].name, "Spanner")
        XCTAssertEqual(SasEmoji.table[21].symbol, "\u{2601}\u{FE0F}")
        XCTAssertThrowsError(try ShortAuthenticationString(bytes: [1, 2, 3]))
    }

    func testCommitmentIsTheSpecsHashOfKeyAndCanonicalStart() throws {
        let start: JSONValue = ["method": "m.sas.v1", "from_device": "A", "transaction_id": "t"]
        let expected = UnpaddedBase64.encode(try Digest.sha256(utf8("KEY" + #"{"from_device":"A","method":"m.sas.v1","transaction_id":"t"}"#)))
        XCTAssertEqual(try SasInfo.commitment(publicKey: "KEY", startContent: start), expected)
    }
}

/// libolm's SAS object, for the oracle test.
private final class LibolmSas {
    private var memory: [UInt8]
    private let sas: OpaquePointer

    init(random: [UInt8]) throws {
        memory = [UInt8](repeating: 0, count: olm_sas_size())
        sas = memory.withUnsafeMutableBytes { olm_sas($0.baseAddress!) }
        var bytes = random
        guard olm_create_sas(sas, &bytes, bytes.count) != olm_error() else { throw failure }
    }

    private var failure: CryptoFailure { CryptoFailure(String(cString: olm_sas_last_error(sas))) }

    var publicKey: String {
        var out = [UInt8](repeating: 0, count: olm_sas_pubkey_length(sas))
        _ = olm_sas_get_pubkey(sas, &out, out.count)
        return String(decoding: out, as: UTF8.self)
    }

    func setTheirKey(_ key: String) throws {
        var bytes = utf8(key)
        guard olm_sas_set_their_key(sas, &bytes, bytes.count) != olm_error() else { throw failure }
    }

    func bytes(info: String, count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count), text = utf8(info)
        guard olm_sas_generate_bytes(sas, &text, text.count, &out, count) != olm_error() else { throw failure }
        return out
    }

    func mac(of input: String, info: String) throws -> String {
        var out = [UInt8](repeating: 0, count: olm_sas_mac_length(sas)), text = utf8(input), infoBytes = utf8(info)
        let length = olm_sas_calculate_mac_fixed_base64(sas, &text, text.count, &infoBytes, infoBytes.count, &out, out.count)
        guard length != olm_error() else { throw failure }
        return String(decoding: out.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
}
