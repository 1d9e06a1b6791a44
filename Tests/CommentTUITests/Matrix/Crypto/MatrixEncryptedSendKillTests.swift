import Foundation
import Glibc
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Kill -9 the client mid-send, many times, in an encrypted room against Synapse with nio: the
/// child (`encrypted-room-sender`, Tests/EncryptedRoomSender) is Ann's client (the account's
/// keys, the room's source and its outbox), queues a few comments each run and is SIGKILLed at a
/// seeded moment (just opened, just queued, just confirmed, plus a few milliseconds), then
/// started again, its outbox resending what was left. No comment is lost or doubled, nio
/// decrypts all of them, and every start decrypts everything the ones before it did.
final class MatrixEncryptedSendKillTests: SharedSynapseTestCase {
    /// The child, built beside this test binary (the test target depends on it).
    static var senderPath: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("encrypted-room-sender").path
    }

    /// How many times the child is killed.
    static let kills = 100

    func testKillingTheClientMidSendLosesAndDoublesNothingAndTheNextStartDecryptsAll() throws {
        // The test target depends on the child, so a missing one means a broken build: fail, never skip.
        guard FileManager.default.isExecutableFile(atPath: Self.senderPath) else {
            return XCTFail("the child is missing at \(Self.senderPath)")
        }
        // A rotation every 5 messages: a kill often lands in a key share too.
        let room = try encryptedRoom(rotationMessages: 5)
        var request: [String: Any] = [
            "homeserver": try server.baseURL.absoluteString, "token": room.ann.account.accessToken, "user": room.ann.account.userID,
            "device": room.ann.account.deviceID, "room": room.room, "folder": room.folder.path,
        ]
        // A first run makes and uploads Ann's device keys, so nio shares its room key with her.
        var tally = KillTally()
        try finish(room, request: request, first: 1, count: 0, tally: &tally)
        var nioBodies = ["before the kills 1", "before the kills 2"]
        try nioSends(nioBodies, in: room)

        var random = SeededRandom(seed: 33)
        var queued = 0
        let started = Date()
        for round in 0 ..< Self.kills {
            if round == Self.kills / 2 {
                let more = ["during the kills 1", "during the kills 2"]
                try nioSends(more, in: room)
                nioBodies += more
            }
            let count = 1 + random.below(3)
            request["first"] = queued + 1
            request["count"] = count
            request["exit"] = false
            let child = try SenderChild(request: request)
            // When to kill: just after the opening, after the m-th queued, or after the m-th
            // confirmed, then a few milliseconds more, so the kill falls inside what follows;
            // or at any moment of the first 300 ms (opening the store, the room, taking keys).
            let moment = random.below(4), nth = 1 + random.below(count)
            let delay = moment == 3 ? random.below(300_000) : random.below(40_000)
            var seenQueued = 0, seenSent = 0
            while moment != 3, let line = child.nextLine(timeout: 30) {
                tally.take(line, round: round, queued: &queued)
                if line.hasPrefix("queued ") { seenQueued += 1 }
                if line.hasPrefix("sent ") { seenSent += 1 }
                if line == "idle" || (moment == 0 && line.hasPrefix("opened ")) || (moment == 1 && seenQueued == nth)
                    || (moment == 2 && seenSent == nth) { break }
            }
            usleep(UInt32(delay))
            let rest = child.kill()
            XCTAssertEqual(child.process.terminationReason, .uncaughtSignal, "round \(round): killed, not stopped: \(child.complaint)")
            for line in rest { tally.take(line, round: round, queued: &queued) }
        }
        let killing = Date().timeIntervalSince(started)
        // A last run, not killed: the outbox sends what is left, and one more comment goes.
        try finish(room, request: request, first: queued + 1, count: 1, tally: &tally)
        queued += 1
        let expected = (1 ... queued).map { "comment \($0)" }

        // Each comment in the room once, under its transaction id, encrypted.
        let events = try room.ann.other.messages(roomID: room.room, limit: 1000).reversed()
        let anns = events.filter { $0["sender"] as? String == room.ann.account.userID && $0["type"] as? String != "m.room.member" }
        XCTAssertTrue(anns.allSatisfy { $0["type"] as? String == "m.room.encrypted" }, "no plaintext of ours on the server")
        let transactions = anns.compactMap { ($0["unsigned"] as? [String: Any])?["transaction_id"] as? String }
        XCTAssertEqual(transactions.count, anns.count, "each event of ours names its transaction")
        XCTAssertEqual(transactions.sorted(), (1 ... queued).map { "kill-\($0)" }.sorted(), "each comment once, none lost")

        // The same store, opened once more, decrypts every message in the room: ours and nio's.
        let keys = try keys(of: room)
        var ours: [String] = [], theirs: [String] = []
        for event in events where event["type"] as? String == "m.room.encrypted" {
            guard case .clear(let clear) = keys.read(JSONValue(foundation: event), roomID: room.room) else {
                XCTFail("\(event["event_id"] ?? "") does not read with the store")
                continue
            }
            let body = clear["content"]?["body"]?.string ?? ""
            if event["sender"] as? String == room.ann.account.userID { ours.append(body) } else { theirs.append(body) }
        }
        XCTAssertEqual(ours.sorted(), expected.sorted())
        XCTAssertEqual(theirs, nioBodies)
        let (source, sync) = try open(room, keys: keys)
        XCTAssertTrue(opened(source).allSatisfy { !source.isPlaceholder($0.id) }, "the final opening reads every row")
        source.stop()
        sync.stop()

        // Nio decrypts all of ours (its to-device messages come at most 100 a sync: read again if some wait).
        var read: (bodies: [String], undecrypted: Int) = ([], -1)
        for _ in 0 ..< 3 where read.undecrypted != 0 {
            let result = try XCTUnwrap(room.nio.run([.messages(room: room.room, limit: 1000)]).first)
            let messages = try XCTUnwrap(result["messages"] as? [[String: Any]], "\(result)")
            read = (messages.filter { $0["decrypted"] as? Bool == true }.compactMap { $0["body"] as? String },
                    try XCTUnwrap(result["undecrypted"] as? Int))
        }
        XCTAssertEqual(read.undecrypted, 0, "nio opened everything")
        XCTAssertEqual(read.bodies.filter { $0.hasPrefix("comment ") }.sorted(), expected.sorted(), "nio reads each comment once")
        print("encrypted send kill test: \(Self.kills) kills in \(Int(killing)) s; \(queued) comments, \(tally.resent.count) sent "
              + "again by a later start; \(tally.killedWhileSending) kills with comments on their way, \(tally.killedOpening) before the "
              + "room was open; \(tally.readAtOpenings) rows read at openings")
    }

    /// Runs the child until everything it sends is in the room and it exits.
    private func finish(_ room: EncryptedRoom, request: [String: Any], first: Int, count: Int, tally: inout KillTally) throws {
        var request = request
        request["first"] = first
        request["count"] = count
        request["exit"] = true
        let child = try SenderChild(request: request)
        var ignored = 0
        while let line = child.nextLine(timeout: 60) { tally.take(line, round: -1, queued: &ignored) }
        child.process.waitUntilExit()
        XCTAssertEqual(child.process.terminationStatus, 0, child.complaint)
    }
}

/// What the children said, checked as it comes: every opening reads every row, and a row read
/// once reads the same ever after.
private struct KillTally {
    /// Bodies of the rows read at an opening, by event id.
    var read: [String: String] = [:]
    var readAtOpenings = 0
    /// Kills that fell while comments of the run were on their way (queued or resent, not confirmed).
    var killedWhileSending = 0
    /// Comments a start found in the outbox and sent again.
    var resent: Set<String> = []
    /// Kills that fell before the room was open (the store, the opening's sync, keys taken).
    var killedOpening = 0
    /// Whether the run being read has opened the room.
    private var opened = false
    /// The run's comments on their way.
    private var onTheirWay: Set<String> = []

    mutating func take(_ line: String, round: Int, queued: inout Int) {
        if line.hasPrefix("opened "), let data = line.dropFirst(7).data(using: .utf8),
           let opening = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            opened = true
            let waiting = opening["waiting"] as? [String] ?? []
            XCTAssertEqual(waiting, [], "round \(round): a row does not read at the opening")
            let bodies = opening["bodies"] as? [String: String] ?? [:]
            for id in opening["read"] as? [String] ?? [] {
                if let before = read[id] { XCTAssertEqual(bodies[id], before, "round \(round): \(id) reads as before") }
                read[id] = bodies[id]
                readAtOpenings += 1
            }
        } else if line.hasPrefix("resending") {
            let ids = line.split(separator: " ").dropFirst().map(String.init)
            resent.formUnion(ids)
            onTheirWay = Set(ids)
        } else if line.hasPrefix("queued "), let number = Int(line.dropFirst(7)) {
            queued = max(queued, number)
            onTheirWay.insert("kill-\(number)")
        } else if line.hasPrefix("sent ") {
            onTheirWay.remove(String(line.dropFirst(5)))
        } else if line.hasPrefix("refused ") {
            XCTFail("round \(round): \(line)")
        } else if line == "killed" {
            if !onTheirWay.isEmpty { killedWhileSending += 1 }
            if !opened { killedOpening += 1 }
            onTheirWay = []
            opened = false
        }
    }
}

/// One run of the child, its stdout read line by line on a thread of its own.
private final class SenderChild: @unchecked Sendable {
    let process = Process()
    private let output = Pipe(), errors = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false
    private var complaintData = Data()

    init(request: [String: Any]) throws {
        process.executableURL = URL(fileURLWithPath: MatrixEncryptedSendKillTests.senderPath)
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request))
        try input.fileHandleForWriting.close()
        Thread.detachNewThread { [self] in
            var pending = ""
            while true {
                let chunk = output.fileHandleForReading.availableData
                condition.lock()
                if chunk.isEmpty {
                    ended = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                pending += String(decoding: chunk, as: UTF8.self)
                while let end = pending.firstIndex(of: "\n") {
                    lines.append(String(pending[..<end]))
                    pending = String(pending[pending.index(after: end)...])
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        Thread.detachNewThread { [self] in
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            condition.withLock { complaintData = data }
        }
    }

    /// The next line, nil at the end of the output or after `timeout` seconds (a failure).
    func nextLine(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty, !ended {
            if !condition.wait(until: deadline) {
                XCTFail("the child said nothing for \(timeout) s")
                return nil
            }
        }
        return lines.isEmpty ? nil : lines.removeFirst()
    }

    /// Kills it with SIGKILL; the lines it printed before, not read yet, then "killed".
    func kill() -> [String] {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(10)
        while !ended, condition.wait(until: deadline) {}
        defer { lines = [] }
        return lines + ["killed"]
    }

    var complaint: String { condition.withLock { String(decoding: complaintData, as: UTF8.self) } }
}
