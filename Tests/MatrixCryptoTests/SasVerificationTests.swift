import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Two `SasVerification`s talking to each other through their messages, in both roles and
/// both transports, and the ways one can go wrong: a mismatch, a timeout, a tampered MAC or
/// commitment, a message out of order, both starting at once.
final class SasVerificationTests: XCTestCase {
    private let now: Int64 = 1_800_000_000_000
    private var random = SeededBytes(seed: 99)
    private let alice = (user: "@alice:x", device: "ALICE", key: "AliceDeviceKey", master: "AliceMasterKey")
    private let bob = (user: "@bob:x", device: "BOB", key: "BobDeviceKey", master: "BobMasterKey")

    /// Alice requests, Bob answers; returns both after the request reached Bob.
    private func pair(transport: SasVerification.Transport = .toDevice(transactionID: "t1"),
                      at time: Int64? = nil) throws -> (SasVerification, SasVerification, [SasVerification.Outgoing]) {
        let (requester, request) = try SasVerification.requesting(
            transport: transport, ourUserID: alice.user, ourDeviceID: alice.device, theirUserID: bob.user, theirDeviceID: nil,
            ourKeys: ["ed25519:\(alice.device)": alice.key, "ed25519:\(alice.master)": alice.master],
            theirDevices: [bob.device: bob.key], theirMasterKey: bob.master, nowMilliseconds: time ?? now, random: &random)
        let answerer = try XCTUnwrap(SasVerification.answering(
            try read(request), transport: transport, ourUserID: bob.user, ourDeviceID: bob.device, theirUserID: alice.user,
            ourKeys: ["ed25519:\(bob.device)": bob.key, "ed25519:\(bob.master)": bob.master],
            theirDevices: [alice.device: alice.key], theirMasterKey: alice.master, nowMilliseconds: time ?? now, random: &random))
        XCTAssertEqual(answerer.phase, .incomingRequest)
        return (requester, answerer, [])
    }

    private func read(_ message: SasVerification.Outgoing) throws -> VerificationMessage {
        try VerificationMessage(type: message.type, content: message.content)
    }

    /// Delivers `messages` to `to` (from `sender`), returning what it sends back.
    private func deliver(_ messages: [SasVerification.Outgoing], to machine: inout SasVerification,
                         from sender: String) throws -> [SasVerification.Outgoing] {
        try messages.flatMap { try machine.receive(read($0), from: sender, nowMilliseconds: now + 1000) }
    }

    /// Runs messages back and forth until neither has anything to send.
    private func exchange(_ first: [SasVerification.Outgoing], fromAlice: Bool, _ a: inout SasVerification,
                          _ b: inout SasVerification) throws {
        var pending = first, towardsBob = fromAlice
        while !pending.isEmpty {
            pending = towardsBob ? try deliver(pending, to: &b, from: alice.user) : try deliver(pending, to: &a, from: bob.user)
            towardsBob.toggle()
        }
    }

    func testBothSidesShowTheSameStringAndVerifyEachOthersKeys() throws {
        for transport in [SasVerification.Transport.toDevice(transactionID: "t1"), .room(roomID: "!r:x", requestEventID: "$req")] {
            var (a, b, _) = try pair(transport: transport)
            try exchange(b.accept(), fromAlice: false, &a, &b)
            XCTAssertEqual(a.phase, .comparing)
            XCTAssertEqual(b.phase, .comparing)
            XCTAssertNotNil(a.shortAuthenticationString)
            XCTAssertEqual(a.shortAuthenticationString, b.shortAuthenticationString)
            XCTAssertEqual(a.agreedForms, ["decimal", "emoji"])
            try exchange(a.confirm(), fromAlice: true, &a, &b)
            XCTAssertEqual(b.phase, .comparing, "Bob's person has not confirmed yet")
            try exchange(b.confirm(), fromAlice: false, &a, &b)
            XCTAssertEqual(a.phase, .done)
            XCTAssertEqual(b.phase, .done)
            XCTAssertEqual(a.verifiedKeys, ["ed25519:\(bob.device)": bob.key, "ed25519:\(bob.master)": bob.master])
            XCTAssertEqual(b.verifiedKeys, ["ed25519:\(alice.device)": alice.key, "ed25519:\(alice.master)": alice.master])
            a._checkInvariants()
            b._checkInvariants()
        }
    }

    func testRoomMessagesRelateToTheRequestAndToDeviceOnesCarryTheTransaction() throws {
        var (a, b, _) = try pair(transport: .room(roomID: "!r:x", requestEventID: "$req"))
        let ready = try XCTUnwrap(b.accept().first)
        XCTAssertEqual(ready.content["m.relates_to"]?["event_id"]?.string, "$req")
        XCTAssertEqual(VerificationMessage.flowID(of: ready.content), "$req")
        let start = try XCTUnwrap(try deliver([ready], to: &a, from: bob.user).first)
        XCTAssertEqual(start.type, "m.key.verification.start")
        XCTAssertNil(start.content["transaction_id"])
        var (c, _, _) = try pair()
        XCTAssertEqual(c.cancel().first?.content["transaction_id"]?.string, "t1")
    }

    func testAMismatchCancelsBothWithMismatchedSas() throws {
        var (a, b, _) = try pair()
        try exchange(b.accept(), fromAlice: false, &a, &b)
        let cancel = b.mismatch()
        XCTAssertEqual(cancel.first?.content["code"]?.string, "m.mismatched_sas")
        try exchange(cancel, fromAlice: false, &a, &b)
        XCTAssertEqual(a.phase, .cancelled(.init(code: .mismatchedSas, reason: VerificationCancelCode.mismatchedSas.words, byUs: false)))
        guard case .cancelled(let ours) = b.phase else { return XCTFail("Bob's side did not end") }
        XCTAssertEqual(ours.code, .mismatchedSas)
        XCTAssertTrue(ours.byUs)
        XCTAssertEqual(a.confirm(), [], "nothing is sent after the end")
    }

    func testNoAnswerTimesOutWithMTimeout() throws {
        var (a, b, _) = try pair()
        XCTAssertEqual(a.tick(nowMilliseconds: now + 9 * 60 * 1000), [])
        XCTAssertEqual(a.tick(nowMilliseconds: now + 10 * 60 * 1000).first?.content["code"]?.string, "m.timeout")
        XCTAssertEqual(a.phase, .cancelled(.init(code: .timeout, reason: VerificationCancelCode.timeout.words, byUs: true)))
        // An incoming request lapses after two minutes unanswered.
        XCTAssertEqual(b.deadline, now + 2 * 60 * 1000)
        XCTAssertEqual(b.tick(nowMilliseconds: now + 2 * 60 * 1000).first?.content["code"]?.string, "m.timeout")
        // A request from more than ten minutes ago is ignored.
        let (_, old) = try SasVerification.requesting(transport: .toDevice(transactionID: "t2"), ourUserID: alice.user, ourDeviceID: alice.device,
                                                      theirUserID: bob.user, theirDeviceID: nil, ourKeys: [:], theirDevices: [:],
                                                      theirMasterKey: nil, nowMilliseconds: now - 11 * 60 * 1000, random: &random)
        XCTAssertNil(try SasVerification.answering(read(old), transport: .toDevice(transactionID: "t2"), ourUserID: bob.user,
                                                   ourDeviceID: bob.device, theirUserID: alice.user, ourKeys: [:], theirDevices: [:],
                                                   theirMasterKey: nil, nowMilliseconds: now, random: &random))
    }

    func testATamperedMacIsAKeyMismatch() throws {
        var (a, b, _) = try pair()
        try exchange(b.accept(), fromAlice: false, &a, &b)
        _ = b.confirm()
        var mac = try XCTUnwrap(a.confirm().first)
        var content = try XCTUnwrap(mac.content.object)
        content["mac"] = ["ed25519:\(alice.device)": .string(UnpaddedBase64.encode([UInt8](repeating: 1, count: 32))),
                          "ed25519:\(alice.master)": content["mac"]!["ed25519:\(alice.master)"]!]
        mac = SasVerification.Outgoing(type: mac.type, content: .object(content))
        XCTAssertEqual(try deliver([mac], to: &b, from: alice.user).first?.content["code"]?.string, "m.key_mismatch")
    }

    func testAKeyOtherThanTheCommittedOneIsAMismatchedCommitment() throws {
        var (a, b, _) = try pair()
        let start = try deliver(b.accept(), to: &a, from: bob.user)
        let accept = try deliver(start, to: &b, from: alice.user)
        let aliceKey = try deliver(accept, to: &a, from: bob.user)
        _ = try deliver(aliceKey, to: &b, from: alice.user)
        let other = UnpaddedBase64.encode(try Curve25519KeyPair(random: &random).publicKey)
        let forged = SasVerification.Outgoing(type: "m.key.verification.key", content: ["transaction_id": "t1", "key": .string(other)])
        XCTAssertEqual(try deliver([forged], to: &a, from: bob.user).first?.content["code"]?.string, "m.mismatched_commitment")
    }

    func testOutOfOrderAndUnknownMethod() throws {
        var (a, b, _) = try pair()
        let mac = SasVerification.Outgoing(type: "m.key.verification.mac", content: ["transaction_id": "t1", "keys": "x", "mac": [:]])
        XCTAssertEqual(try deliver([mac], to: &a, from: bob.user).first?.content["code"]?.string, "m.unexpected_message")
        var (d, _, _) = try pair()
        let ready = SasVerification.Outgoing(type: "m.key.verification.ready",
                                             content: ["transaction_id": "t1", "from_device": "BOB", "methods": ["m.qr_code.show.v1"]])
        XCTAssertEqual(try deliver([ready], to: &d, from: bob.user).first?.content["code"]?.string, "m.unknown_method")
    }

    func testAThirdUsersMessagesAreDroppedWithoutCancellingAndItGoesOn() throws {
        var (a, b, _) = try pair(transport: .room(roomID: "!r:x", requestEventID: "$req"))
        let ready = b.accept()
        let cancel = SasVerification.Outgoing(type: "m.key.verification.cancel", content: [
            "m.relates_to": ["rel_type": "m.reference", "event_id": "$req"], "code": "m.user", "reason": "no"])
        // Mallory, another member of the room, relates a ready and a cancel to the request.
        XCTAssertEqual(try deliver(ready + [cancel], to: &a, from: "@mallory:x"), [])
        XCTAssertEqual(a.phase, .requested)
        XCTAssertNil(a.theirDeviceID)
        try exchange(ready, fromAlice: false, &a, &b)
        XCTAssertEqual(try deliver([cancel], to: &b, from: "@mallory:x"), [])
        XCTAssertEqual(b.phase, .comparing)
        try exchange(a.confirm(), fromAlice: true, &a, &b)
        try exchange(b.confirm(), fromAlice: false, &a, &b)
        XCTAssertEqual(a.phase, .done)
        XCTAssertEqual(b.phase, .done)
    }

    func testOnceOneDeviceAnsweredTheOtherAskedDevicesCannotEndIt() throws {
        // Alice asks all of Bob's devices; BOB answers, then BOB2's decline (and a ready) comes late.
        let (requesting, request) = try SasVerification.requesting(
            transport: .toDevice(transactionID: "t1"), ourUserID: alice.user, ourDeviceID: alice.device, theirUserID: bob.user,
            theirDeviceID: nil, ourKeys: ["ed25519:\(alice.device)": alice.key], theirDevices: [bob.device: bob.key, "BOB2": "Bob2Key"],
            theirMasterKey: nil, nowMilliseconds: now, random: &random)
        var a = requesting
        var b = try XCTUnwrap(SasVerification.answering(
            try read(request), transport: .toDevice(transactionID: "t1"), ourUserID: bob.user, ourDeviceID: bob.device,
            theirUserID: alice.user, ourKeys: ["ed25519:\(bob.device)": bob.key], theirDevices: [alice.device: alice.key],
            theirMasterKey: nil, nowMilliseconds: now, random: &random))
        var elsewhere = try XCTUnwrap(SasVerification.answering(
            try read(request), transport: .toDevice(transactionID: "t1"), ourUserID: bob.user, ourDeviceID: "BOB2",
            theirUserID: alice.user, ourKeys: ["ed25519:BOB2": "Bob2Key"], theirDevices: [alice.device: alice.key],
            theirMasterKey: nil, nowMilliseconds: now, random: &random))
        let start = try deliver(b.accept(), to: &a, from: bob.user)
        XCTAssertEqual(a.theirDeviceID, bob.device)
        // Our cancels name our device, so the other side can tell whose they are.
        let decline = elsewhere.cancel()
        XCTAssertEqual(decline.first?.content["from_device"]?.string, "BOB2")
        // The client passes the device a message names (or its Olm session says) along.
        XCTAssertEqual(try decline.flatMap { try a.receive(read($0), from: bob.user, device: $0.content["from_device"]?.string,
                                                           nowMilliseconds: now) }, [])
        let plain = SasVerification.Outgoing(type: "m.key.verification.cancel", content: ["transaction_id": "t1", "code": "m.user", "reason": ""])
        XCTAssertEqual(a.receive(try read(plain), from: bob.user, device: "BOB2", nowMilliseconds: now), [])
        XCTAssertEqual(a.phase, .started)
        try exchange(start, fromAlice: true, &a, &b)
        XCTAssertEqual(a.phase, .comparing)
        try exchange(a.confirm(), fromAlice: true, &a, &b)
        try exchange(b.confirm(), fromAlice: false, &a, &b)
        XCTAssertEqual(a.phase, .done)
        XCTAssertEqual(a.verifiedKeys, ["ed25519:\(bob.device)": bob.key])
        // The answering device's own cancel still ends a verification.
        var (c, _, _) = try pair()
        _ = c.receive(.ready(fromDevice: bob.device, methods: [VerificationMessage.sasMethod]), from: bob.user, nowMilliseconds: now)
        _ = c.receive(try read(plain), from: bob.user, device: bob.device, nowMilliseconds: now)
        XCTAssertEqual(c.phase, .cancelled(.init(code: .user, reason: "", byUs: false)))
    }

    func testADeviceLearntAfterTheRequestHasItsKeyVerified() throws {
        // Bob's device is not among those known when Alice asked (it logged in after): learnt before its ready.
        var (a, _, _) = try pair()
        var fresh = try XCTUnwrap(SasVerification.answering(
            .request(fromDevice: alice.device, methods: [VerificationMessage.sasMethod], timestamp: now), transport: .toDevice(transactionID: "t1"),
            ourUserID: bob.user, ourDeviceID: "NEW", theirUserID: alice.user, ourKeys: ["ed25519:NEW": "NewKey"],
            theirDevices: [alice.device: alice.key], theirMasterKey: nil, nowMilliseconds: now, random: &random))
        XCTAssertFalse(a.knowsDevice("NEW"))
        a.learnDevices(["NEW": "NewKey", bob.device: "Replaced"])
        XCTAssertTrue(a.knowsDevice("NEW"))
        try exchange(fresh.accept(), fromAlice: false, &a, &fresh)
        try exchange(a.confirm(), fromAlice: true, &a, &fresh)
        try exchange(fresh.confirm(), fromAlice: false, &a, &fresh)
        XCTAssertEqual(a.phase, .done)
        XCTAssertEqual(a.verifiedKeys, ["ed25519:NEW": "NewKey"])
        XCTAssertEqual(a.theirDevices[bob.device], bob.key, "a known key is never replaced")
    }

    func testWhenBothStartTheSmallerUsersStartWins() throws {
        var (a, b, _) = try pair()
        let ready = b.accept()
        let aliceStart = try deliver(ready, to: &a, from: bob.user)
        let bobStart = b.start()
        XCTAssertEqual(bobStart.first?.type, "m.key.verification.start")
        // Alice (@alice < @bob) ignores Bob's start; Bob takes Alice's and accepts it.
        XCTAssertEqual(try deliver(bobStart, to: &a, from: bob.user), [])
        let accept = try deliver(aliceStart, to: &b, from: alice.user)
        XCTAssertEqual(accept.first?.type, "m.key.verification.accept")
        try exchange(accept, fromAlice: false, &a, &b)
        XCTAssertEqual(a.shortAuthenticationString, b.shortAuthenticationString)
        XCTAssertEqual(a.phase, .comparing)
    }

    func testAStartWithoutARequestIsAnsweredAfterAccept() throws {
        var (a, b, _) = try pair()
        let start = try deliver(b.accept(), to: &a, from: bob.user)
        var c = try XCTUnwrap(SasVerification.answering(
            try read(start[0]), transport: .toDevice(transactionID: "t1"), ourUserID: bob.user, ourDeviceID: bob.device,
            theirUserID: alice.user, ourKeys: ["ed25519:\(bob.device)": bob.key], theirDevices: [alice.device: alice.key],
            theirMasterKey: nil, nowMilliseconds: now, random: &random))
        XCTAssertEqual(c.phase, .incomingStart)
        try exchange(c.accept(), fromAlice: false, &a, &c)
        XCTAssertEqual(a.shortAuthenticationString, c.shortAuthenticationString)
        try exchange(a.confirm(), fromAlice: true, &a, &c)
        try exchange(c.confirm(), fromAlice: false, &a, &c)
        XCTAssertEqual(c.phase, .done)
        XCTAssertEqual(a.phase, .done)
        XCTAssertEqual(a.verifiedKeys, ["ed25519:\(bob.device)": bob.key], "Bob sent no master key MAC")
    }
}
