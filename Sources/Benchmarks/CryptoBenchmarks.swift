import Foundation
import MatrixCrypto
import ThreadModel

/// End-to-end encryption's per-message costs (issue 33's targets: Megolm under 50 µs for a 1 KB
/// body), Olm session setup, and the primitives they are made of, so a miss can be placed.
func cryptoBenchmarks() -> [BenchmarkRow] {
    let area = "crypto"
    do {
        var random = SystemRandom()
        let body = Array(String(repeating: "a comment of some length, ", count: 40).utf8.prefix(1024))
        var outbound = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        var inbound = try MegolmInboundSession(sessionKey: outbound.sessionKey())
        var encrypts: [Double] = [], decrypts: [Double] = []
        for _ in 0 ..< 2000 {
            var start = benchNow()
            let message = try outbound.encrypt(body)
            encrypts.append(Double(benchNow() - start) / 1000)
            start = benchNow()
            let read = try inbound.decrypt(message)
            decrypts.append(Double(benchNow() - start) / 1000)
            guard read.plaintext == body else { throw CryptoFailure("Megolm round trip") }
        }

        let alice = try OlmAccount(random: &random)
        var bob = try OlmAccount(random: &random)
        var setups: [Double] = []
        for _ in 0 ..< 200 {
            try bob.generateOneTimeKeys(1, random: &random)
            let oneTimeKey = try required(bob.unpublishedOneTimeKeys.first?.publicKey)
            let start = benchNow()
            var session = try OlmSession.outbound(account: alice, theirIdentityKey: bob.curve25519Key, theirOneTimeKey: oneTimeKey, random: &random)
            let first = try session.encrypt(Array("{}".utf8), random: &random)
            let (_, plaintext) = try OlmSession.inbound(account: bob, theirIdentityKey: alice.curve25519Key, preKeyMessage: first.bytes)
            setups.append(Double(benchNow() - start) / 1000)
            guard plaintext == Array("{}".utf8) else { throw CryptoFailure("Olm round trip") }
            bob.markKeysAsPublished()
        }

        let signer = try Ed25519KeyPair(random: &random)
        var signs: [Double] = [], verifies: [Double] = []
        for _ in 0 ..< 500 {
            var start = benchNow()
            let signature = try signer.sign(body)
            signs.append(Double(benchNow() - start) / 1000)
            start = benchNow()
            guard Ed25519KeyPair.verify(signature: signature, of: body, by: signer.publicKey) else { throw CryptoFailure("verify") }
            verifies.append(Double(benchNow() - start) / 1000)
        }
        let e = percentiles(encrypts), d = percentiles(decrypts), o = percentiles(setups)
        let s = percentiles(signs), v = percentiles(verifies)
        return [
            BenchmarkRow(area: area, name: "Megolm encrypt, 1 KB body (median / p99)", value: String(format: "%.1f / %.1f µs", e.median, e.p99)),
            BenchmarkRow(area: area, name: "Megolm decrypt, 1 KB body, signature checked (median / p99)", value: String(format: "%.1f / %.1f µs", d.median, d.p99)),
            BenchmarkRow(area: area, name: "Olm session setup: outbound, pre-key message, inbound (median)", value: String(format: "%.0f µs", o.median)),
            BenchmarkRow(area: area, name: "of which Ed25519 sign / verify, 1 KB (median)", value: String(format: "%.1f / %.1f µs", s.median, v.median)),
        ]
    } catch {
        return [BenchmarkRow(area: area, name: "failed", value: "\(error)")]
    }
}

/// The value, or a failure saying it is missing.
private func required<T>(_ value: T?) throws -> T {
    guard let value else { throw CryptoFailure("a value the benchmark needs is missing") }
    return value
}
